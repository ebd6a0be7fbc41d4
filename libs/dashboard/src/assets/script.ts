/**
 * The dashboard's one script, served from /dashboard/static/ under a content hash (the CSP allows
 * scripts from the gateway's own origin only, never inline). Progressive: every page works without
 * it. It adds:
 *
 * - copy buttons (`data-copy="<element id>"`): the new key to the clipboard;
 * - confirmation of forms with `data-confirm`: a native dialog, then `confirmed=1` is sent (without
 *   the script the server answers the same form with a confirmation page);
 * - the drop zone of Try it: drag a file onto it, see its name;
 * - the count-down of expiry dates (`data-expires`), refreshed every 30 s;
 * - a busy state on submit buttons of forms marked `data-busy`.
 *
 * Texts come from data attributes written by the server in the page's language.
 */
export const SCRIPT = `
(function () {
  'use strict';

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.className = 'visually-hidden';
      document.body.appendChild(area);
      area.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
      document.body.removeChild(area);
      ok ? resolve() : reject(new Error('copy refused'));
    });
  }

  document.querySelectorAll('button[data-copy]').forEach(function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      var label = button.textContent;
      copyText(target.textContent.trim()).then(function () {
        button.textContent = button.getAttribute('data-copied') || label;
        setTimeout(function () { button.textContent = label; }, 2000);
      }, function () {
        var range = document.createRange();
        range.selectNodeContents(target);
        var selection = window.getSelection();
        selection.removeAllRanges();
        selection.addRange(range);
      });
    });
  });

  document.querySelectorAll('form[data-confirm]').forEach(function (form) {
    form.addEventListener('submit', function (event) {
      if (!window.confirm(form.getAttribute('data-confirm'))) { event.preventDefault(); return; }
      var field = document.createElement('input');
      field.type = 'hidden';
      field.name = 'confirmed';
      field.value = '1';
      form.appendChild(field);
    });
  });

  document.querySelectorAll('form[data-busy]').forEach(function (form) {
    form.addEventListener('submit', function () {
      var button = form.querySelector('button[type="submit"]');
      if (!button) return;
      setTimeout(function () {
        button.disabled = true;
        button.textContent = form.getAttribute('data-busy');
      }, 0);
    });
  });

  document.querySelectorAll('.dropzone').forEach(function (zone) {
    var input = zone.querySelector('input[type="file"]');
    var chosen = zone.querySelector('.chosen');
    if (!input) return;
    function show() {
      if (!chosen) return;
      var file = input.files && input.files[0];
      chosen.textContent = file ? (zone.getAttribute('data-chosen') || '') + ' ' + file.name + ' (' + Math.max(1, Math.round(file.size / 1024)) + ' KB)' : '';
    }
    ['dragenter', 'dragover'].forEach(function (name) {
      zone.addEventListener(name, function (event) { event.preventDefault(); zone.classList.add('dragging'); });
    });
    ['dragleave', 'dragend'].forEach(function (name) {
      zone.addEventListener(name, function () { zone.classList.remove('dragging'); });
    });
    zone.addEventListener('drop', function (event) {
      event.preventDefault();
      zone.classList.remove('dragging');
      if (event.dataTransfer && event.dataTransfer.files && event.dataTransfer.files.length) {
        input.files = event.dataTransfer.files;
        show();
      }
    });
    input.addEventListener('change', show);
    show();
  });

  function countdown() {
    var now = Date.now();
    document.querySelectorAll('[data-expires]').forEach(function (el) {
      var left = Date.parse(el.getAttribute('data-expires')) - now;
      if (isNaN(left)) return;
      if (left <= 0) { el.textContent = el.getAttribute('data-expired') || ''; return; }
      var minutes = Math.floor(left / 60000);
      var days = Math.floor(minutes / 1440);
      var hours = Math.floor((minutes % 1440) / 60);
      var mins = minutes % 60;
      var text = days > 0 ? days + ' ' + (el.getAttribute('data-day') || 'd') + ' ' + hours + ' h'
        : hours > 0 ? hours + ' h ' + (mins < 10 ? '0' : '') + mins + ' min'
        : Math.max(1, mins) + ' min';
      el.textContent = (el.getAttribute('data-in') || '{}').replace('{}', text);
    });
  }
  countdown();
  setInterval(countdown, 30000);
})();
`;
