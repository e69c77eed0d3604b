// The dashboard's own script: times in the viewer's zone (UTC stays on hover) and copy
// buttons for secrets shown once. Pages work without it.
(function () {
  'use strict';
  function localTimes() {
    var format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    document.querySelectorAll('time[datetime]').forEach(function (element) {
      var when = new Date(element.getAttribute('datetime'));
      if (!isNaN(when.getTime())) {
        element.textContent = format.format(when);
      }
    });
  }
  function copy(button) {
    var target = document.getElementById(button.getAttribute('data-copy'));
    if (!target) { return; }
    var text = target.textContent;
    var done = function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { select(target); });
    } else {
      select(target);
    }
  }
  function select(target) {
    var range = document.createRange();
    range.selectNodeContents(target);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }
  document.addEventListener('DOMContentLoaded', function () {
    localTimes();
    document.querySelectorAll('button[data-copy]').forEach(function (button) {
      button.addEventListener('click', function () { copy(button); });
    });
  });
})();
