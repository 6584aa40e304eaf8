// Small conveniences; every page works without JavaScript.

// Upload progress for the upload forms.
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

// The judge's count form: as many "not on the list" rows as needed, running totals.
document.querySelectorAll("form.judge-form").forEach(function (form) {
  var fieldset = form.querySelector(".extra-cards");
  var more = form.querySelector("[data-add-row]");
  var totals = form.querySelector(".totals");
  function rows() { return fieldset.querySelectorAll(".extra-row"); }
  function addRow() {
    var last = rows()[rows().length - 1];
    var copy = last.cloneNode(true);
    var index = rows().length;
    copy.querySelectorAll("input, select").forEach(function (field) {
      field.name = field.name.replace(/_\d+$/, "_" + index);
      if (field.tagName === "INPUT") { field.value = field.name.indexOf("add_qty") === 0 ? "1" : ""; }
    });
    fieldset.insertBefore(copy, more);
    copy.querySelector("input").focus();
  }
  function recount() {
    var sums = { main: 0, extra: 0, side: 0 };
    form.querySelectorAll("input[data-section]").forEach(function (input) {
      sums[input.dataset.section] += parseInt(input.value, 10) || 0;
    });
    rows().forEach(function (row) {
      var name = row.querySelector("input[name^=add_name]").value.trim();
      var qty = parseInt(row.querySelector("input[name^=add_qty]").value, 10) || 0;
      if (name) { sums[row.querySelector("select").value] += qty; }
    });
    Object.keys(sums).forEach(function (section) {
      totals.querySelector("[data-total=" + section + "]").textContent = sums[section];
    });
  }
  more.hidden = false;
  totals.hidden = false;
  more.addEventListener("click", addRow);
  form.addEventListener("input", recount);
  form.addEventListener("change", recount);
  recount();
});

// The event page follows the background check: while one runs the notice at the top says
// so, and when one finishes the results and counts are replaced by the new ones (the page
// is asked for again and only those parts are swapped; the filters typed are kept).
(function () {
  var results = document.getElementById("results");
  var notice = document.getElementById("checking");
  if (!results || !notice || !window.fetch || !window.DOMParser) { return; }
  var seen = results.dataset.finished;
  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var next = fresh.getElementById("results");
    if (!next) { return; }
    ["live-summary", "live-results"].forEach(function (id) {
      var mine = document.getElementById(id);
      var theirs = fresh.getElementById(id);
      if (mine && theirs) { mine.replaceWith(theirs); }
    });
    if (!document.getElementById("live-results")) { results.replaceWith(next); results = next; }
    var errors = fresh.getElementById("check-errors");
    var mineErrors = document.getElementById("check-errors");
    if (errors && mineErrors) { mineErrors.replaceWith(errors); }
    results.dataset.finished = next.dataset.finished;
    seen = next.dataset.finished;
  }
  function poll() {
    fetch("/status.json", { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (status) {
        notice.hidden = !status.checking;
        if (String(status.finished) !== String(seen) && !status.checking) {
          return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
            .then(function (r) { return r.text(); }).then(swap);
        }
      })
      .catch(function () { /* the server is restarting: ask again later */ })
      .then(function () { window.setTimeout(poll, notice.hidden ? 5000 : 1500); });
  }
  window.setTimeout(poll, notice.hidden ? 5000 : 1500);
})();

// A print button (the deck-check sheet).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.addEventListener("click", function () { window.print(); });
});

// Card names typed by a judge: suggestions from the event's card pool as they type.
(function () {
  var list = document.getElementById("card-names");
  if (!list || !window.fetch) { return; }
  var asked = "";
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.matches || !field.matches("input[data-card-names]")) { return; }
    if (field.getAttribute("list") !== "card-names") { field.setAttribute("list", "card-names"); }
    var typed = field.value.trim();
    if (typed.length < 2) { list.textContent = ""; asked = ""; return; }
    if (typed === asked) { return; }
    asked = typed;
    fetch("/judge-cards.json?q=" + encodeURIComponent(typed)).then(function (answer) {
      return answer.ok ? answer.json() : { names: [] };
    }).then(function (found) {
      if (asked !== typed) { return; }
      list.textContent = "";
      // a name typed in full needs no list (its popup would sit over the form)
      var whole = found.names.some(function (name) {
        return name.toLowerCase() === typed.toLowerCase();
      });
      if (whole) { return; }
      found.names.forEach(function (name) {
        var option = document.createElement("option");
        option.value = name;
        list.appendChild(option);
      });
    });
  });
})();
