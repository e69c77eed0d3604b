// The docs' search box: fetches the index the service built from the rendered pages
// once, on first use, and lists the sections whose heading or text holds every word
// typed, headings first. No inline script, nothing from elsewhere.
(function () {
  'use strict';
  var input = document.getElementById('search');
  var list = document.getElementById('results');
  if (!input || !list) { return; }
  var index = null;
  var loading = null;

  function load() {
    if (!loading) {
      loading = fetch('/docs/search-index.json')
        .then(function (answer) { return answer.json(); })
        .then(function (entries) {
          index = entries.map(function (entry) {
            return { entry: entry, heading: (entry.h + ' ' + entry.p).toLowerCase(), text: entry.x.toLowerCase() };
          });
        });
    }
    return loading;
  }

  function score(item, words) {
    var total = 0;
    for (var i = 0; i < words.length; i++) {
      if (item.heading.indexOf(words[i]) >= 0) { total += 10; }
      else if (item.text.indexOf(words[i]) >= 0) { total += 1; }
      else { return 0; }
    }
    return total;
  }

  function show() {
    var words = input.value.toLowerCase().split(/\s+/).filter(function (w) { return w.length > 0; });
    list.textContent = '';
    if (words.length === 0 || !index) { list.hidden = true; return; }
    var found = index
      .map(function (item) { return { item: item, score: score(item, words) }; })
      .filter(function (hit) { return hit.score > 0; })
      .sort(function (a, b) { return b.score - a.score; })
      .slice(0, 12);
    if (found.length === 0) {
      var none = document.createElement('li');
      none.className = 'none';
      none.textContent = 'Nothing found';
      list.appendChild(none);
    }
    found.forEach(function (hit) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = hit.item.entry.u;
      a.textContent = hit.item.entry.h;
      var page = document.createElement('span');
      page.className = 'page';
      page.textContent = hit.item.entry.p;
      a.appendChild(page);
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = false;
  }

  input.addEventListener('focus', load);
  input.addEventListener('input', function () { load().then(show); });
  input.addEventListener('keydown', function (event) {
    var first = list.querySelector('a');
    if (event.key === 'Enter' && first) { location.href = first.href; }
    if (event.key === 'Escape') { list.hidden = true; input.blur(); }
  });
  document.addEventListener('click', function (event) {
    if (!list.contains(event.target) && event.target !== input) { list.hidden = true; }
  });
})();
