// Upload progress for the upload forms; without JavaScript the forms post as usual.
document.querySelectorAll("form.upload").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    var bar = form.querySelector("progress");
    if (!bar || !window.XMLHttpRequest) { return; }
    event.preventDefault();
    var request = new XMLHttpRequest();
    bar.hidden = false;
    request.upload.addEventListener("progress", function (e) {
      if (e.lengthComputable) { bar.value = Math.round(100 * e.loaded / e.total); }
    });
    request.addEventListener("load", function () {
      document.open(); document.write(request.responseText); document.close();
      if (request.responseURL) { history.replaceState(null, "", request.responseURL); }
    });
    request.open("POST", form.action);
    request.send(new FormData(form));
  });
});
