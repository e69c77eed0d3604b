// The playground's console: sends one request to this service with the key typed into
// the page, and shows the answer. The key is read from the field at each send and kept
// nowhere else: no storage, no cookie. Every request says it comes from the console
// (`opinion-playground`), so in production the service refuses its writes unless the
// operator turned the console on.
(function () {
  'use strict';
  var form = document.getElementById('try');
  if (!form) { return; }
  var key = document.getElementById('try-key');
  var route = document.getElementById('try-route');
  var path = document.getElementById('try-path');
  var body = document.getElementById('try-body');
  var status = document.getElementById('try-status');
  var answer = document.getElementById('try-answer');

  function chosen() { return route.value.split(' '); }
  function fill() { path.value = chosen()[1]; }
  route.addEventListener('change', fill);
  fill();

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var method = chosen()[0];
    var target = path.value.trim();
    if (target.indexOf('/api/') !== 0 || /[{}]/.test(target)) {
      status.textContent = 'The path must start with /api/ and name every {parameter}.';
      return;
    }
    var headers = { 'Opinion-Playground': 'console' };
    if (key.value) { headers.Authorization = 'Bearer ' + key.value.trim(); }
    var init = { method: method, headers: headers, credentials: 'omit', cache: 'no-store' };
    if (method !== 'GET' && body.value.trim()) {
      headers['Content-Type'] = 'application/json';
      init.body = body.value;
    }
    status.textContent = 'Sending…';
    answer.textContent = '';
    fetch(target, init).then(function (response) {
      return response.text().then(function (text) {
        status.textContent = response.status + ' · x-request-id ' + (response.headers.get('x-request-id') || '');
        try { answer.textContent = JSON.stringify(JSON.parse(text), null, 2); } catch (notJson) { answer.textContent = text; }
      });
    }).catch(function (error) { status.textContent = 'The request failed: ' + error.message; });
  });
})();
