// The registration page: the list checked while the player types (check.json, debounced),
// card names suggested from the event's card pool (cards.json), a suggestion for a name that
// names no card taken with one tap, and more rows when the last one is filled. Without
// this script the page works with its Check and Submit buttons.
(function () {
  "use strict";
  var form = document.getElementById("deck-form");
  if (!form) { return; }
  var live = document.getElementById("live");
  var timer = null, asked = 0, suggestTimer = null;

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (cls) { el.className = cls; }
    return el;
  }

  function clearFixes() {
    form.querySelectorAll(".deck-row .fixes.live-fix").forEach(function (el) { el.remove(); });
    form.querySelectorAll(".deck-row input.name[aria-invalid]").forEach(function (el) {
      el.removeAttribute("aria-invalid");
      el.parentNode.removeAttribute("data-unknown");
    });
  }

  function show(result) {
    if (!result.counts) { return; }
    live.textContent = "";
    var counts = text("p", "", "counts");
    Object.keys(result.counts).forEach(function (section) {
      var legend = form.querySelector('fieldset[data-section="' + section + '"] legend');
      var span = text("span", (legend ? legend.textContent : section) + ": ");
      span.dataset.section = section;
      span.appendChild(text("b", String(result.counts[section])));
      counts.appendChild(span);
      counts.appendChild(document.createTextNode(" "));
    });
    live.appendChild(counts);
    var verdict = text("p", live.getAttribute("data-" + result.status) || result.status,
                       "verdict " + result.status);
    verdict.dataset.status = result.status;
    live.appendChild(verdict);
    var list = document.createElement("ul");
    list.className = "violations";
    result.violations.concat(result.problems.map(function (p) {
      return {code: p.code, message: p.where + ": " + p.message};
    })).forEach(function (v) {
      var item = text("li", v.message);
      item.dataset.code = v.code;
      list.appendChild(item);
    });
    live.appendChild(list);
    var tally = document.getElementById("tally");
    if (tally) {
      Object.keys(result.counts).forEach(function (section) {
        var b = tally.querySelector('[data-section="' + section + '"] b');
        if (b) { b.textContent = String(result.counts[section]); }
      });
      var mark = tally.querySelector(".tally-status");
      mark.className = "tally-status " + result.status;
      mark.dataset.status = result.status;
    }
    clearFixes();
    form.querySelectorAll(".deck-row .read-as").forEach(function (el) { el.remove(); });
    Object.keys(result.read_as || {}).forEach(function (field) {
      var input = form.querySelector('input[name="' + field + '"]');
      if (!input) { return; }
      var note = text("div", live.getAttribute("data-read-as").replace("{card}",
                      result.read_as[field]), "read-as");
      note.dataset.readAs = result.read_as[field];
      input.parentNode.appendChild(note);
    });
    Object.keys(result.unknown).forEach(function (field) {
      var input = form.querySelector('input[name="' + field + '"]');
      if (!input) { return; }
      input.setAttribute("aria-invalid", "true");
      input.parentNode.dataset.unknown = "1";
      var old = input.parentNode.querySelector(".fixes");
      if (old) { old.remove(); }
      var box = text("div", "", "fixes live-fix");
      box.appendChild(text("span", live.getAttribute("data-no-card") + " "));
      result.unknown[field].forEach(function (name) {
        var b = text("button", name, "fix");
        b.type = "button";
        b.addEventListener("click", function () {
          input.value = name;
          box.remove();
          input.removeAttribute("aria-invalid");
          schedule();
        });
        box.appendChild(b);
      });
      input.parentNode.appendChild(box);
    });
  }

  function check() {
    var number = ++asked;
    var data = new FormData(form);
    data.delete("deck_file");
    fetch(form.dataset.check, {method: "POST", body: data, credentials: "same-origin"})
      .then(function (r) { return r.json(); })
      .then(function (result) { if (number === asked) { show(result); } })
      .catch(function () { /* the Check button still works */ });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, 400);
  }

  function closeSuggest() {
    form.querySelectorAll("ul.suggest").forEach(function (el) { el.remove(); });
  }

  function suggest(input) {
    clearTimeout(suggestTimer);
    var q = input.value.trim();
    if (q.length < 1) { closeSuggest(); return; }
    suggestTimer = setTimeout(function () {
      fetch(form.dataset.cards + "?q=" + encodeURIComponent(q), {credentials: "same-origin"})
        .then(function (r) { return r.json(); })
        .then(function (found) {
          closeSuggest();
          if (document.activeElement !== input || !found.names.length) { return; }
          var list = text("ul", "", "suggest");
          list.setAttribute("role", "listbox");
          found.names.slice(0, 8).forEach(function (name) {
            var item = document.createElement("li");
            var b = text("button", name);
            b.type = "button";
            b.setAttribute("role", "option");
            b.addEventListener("mousedown", function (e) { e.preventDefault(); });
            b.addEventListener("click", function () {
              input.value = name;
              closeSuggest();
              grow(input);
              schedule();
              var qty = input.parentNode.querySelector("input.qty");
              if (qty && !qty.value) { qty.focus(); qty.select(); }
            });
            item.appendChild(b);
            list.appendChild(item);
          });
          input.parentNode.appendChild(list);
        })
        .catch(function () { closeSuggest(); });
    }, 150);
  }

  function grow(input) {
    // a new empty row when the last row of a section is filled
    var rows = input.closest(".rows");
    var all = rows.querySelectorAll(".deck-row");
    var last = all[all.length - 1];
    if (!last.querySelector("input.name").value) { return; }
    var copy = last.cloneNode(true);
    var section = input.closest("fieldset").dataset.section;
    var index = all.length;
    copy.querySelectorAll(".fixes, ul.suggest").forEach(function (el) { el.remove(); });
    copy.removeAttribute("data-unknown");
    var qty = copy.querySelector("input.qty"), name = copy.querySelector("input.name");
    qty.name = section + "_qty_" + index;
    qty.value = "";
    name.name = section + "_name_" + index;
    name.value = "";
    name.removeAttribute("aria-invalid");
    rows.appendChild(copy);
  }

  form.addEventListener("input", function (e) {
    var target = e.target;
    if (target.classList.contains("name")) { suggest(target); grow(target); }
    if (target.name !== "player_name" && target.name !== "access") { schedule(); }
  });
  form.addEventListener("focusout", function (e) {
    if (e.target.classList && e.target.classList.contains("name")) {
      setTimeout(closeSuggest, 200);
    }
  });
  // a suggestion sent back by the server (no script) is taken here without a reload
  form.querySelectorAll("button.fix").forEach(function (b) {
    b.addEventListener("click", function (e) {
      var parts = b.value.split("|");
      var input = form.querySelector('input[name="' + parts[0] + '"]');
      if (!input) { return; }
      e.preventDefault();
      input.value = parts.slice(1).join("|");
      b.parentNode.remove();
      input.removeAttribute("aria-invalid");
      schedule();
    });
  });
}());
