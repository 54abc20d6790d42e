// tei serve's script, added to every page it serves (never written into a build): the page follows the desk.
// It listens to the desk's state (server-sent events, /__tei/events). A good build newer than the page
// reloads it at the unit the editor was reading (the active unit, else the first unit or passage in view,
// at the same height); a failed build shows its diagnostics over the page, which stays the last good build.
// A small bar says what the desk is doing and asks for the PDF.
(function () {
  'use strict';
  var me = document.currentScript;
  var shown = Number(me && me.dataset.good) || 0; // the good build this page is
  var KEY = 'tei-desk-place';

  function place() {
    var active = document.querySelector('.app.active[id]');
    if (active) return {id: active.id, top: active.getBoundingClientRect().top};
    var marks = document.querySelectorAll('main .app[id], main [id^="passage-"], .app[id], [id^="passage-"]');
    for (var i = 0; i < marks.length; i++) {
      var box = marks[i].getBoundingClientRect();
      if (box.bottom > 0 && box.height > 0) return {id: marks[i].id, top: box.top};
    }
    return {id: '', top: 0, y: window.scrollY};
  }

  function restore() {
    var saved = sessionStorage.getItem(KEY);
    if (!saved) return;
    sessionStorage.removeItem(KEY);
    try { saved = JSON.parse(saved); } catch (e) { return; }
    var target = saved.id && document.getElementById(saved.id);
    if (target) window.scrollBy(0, target.getBoundingClientRect().top - saved.top);
    else if (saved.y) window.scrollTo(0, saved.y);
  }

  var bar = document.createElement('div');
  bar.id = 'tei-desk';
  bar.setAttribute('role', 'status');
  bar.style.cssText = 'position:fixed;right:.5rem;bottom:.5rem;z-index:1000;background:#fff;color:#222;' +
    'border:1px solid #888;border-radius:.3rem;padding:.2rem .5rem;font:13px/1.4 sans-serif;';
  var status = document.createElement('span');
  status.textContent = 'tei serve: connecting';
  var pdf = document.createElement('button');
  pdf.type = 'button';
  pdf.textContent = 'Build PDF';
  pdf.style.marginLeft = '.5rem';
  var pdfLink = document.createElement('a');
  pdfLink.href = '/edition.pdf';
  pdfLink.textContent = 'edition.pdf';
  pdfLink.hidden = true;
  pdfLink.style.marginLeft = '.5rem';
  bar.append(status, pdf, pdfLink);

  var problems = document.createElement('aside');
  problems.id = 'tei-desk-problems';
  problems.setAttribute('role', 'alert');
  problems.hidden = true;
  problems.style.cssText = 'position:fixed;left:0;right:0;top:0;z-index:1001;max-height:45vh;overflow:auto;' +
    'background:#fff4f4;color:#600;border-bottom:3px solid #b00;padding:.5rem 1rem;font:13px/1.4 sans-serif;';
  var heading = document.createElement('strong');
  heading.textContent = 'The edition does not build: the page shows the last good build.';
  var list = document.createElement('pre');
  list.style.cssText = 'white-space:pre-wrap;margin:.3rem 0 0;font:12px/1.4 monospace;color:#400;';
  problems.append(heading, list);

  pdf.addEventListener('click', function () {
    pdf.disabled = true;
    fetch('/__tei/pdf', {method: 'POST'}).catch(function () { pdf.disabled = false; });
  });

  function show(state) {
    if (state.good > shown) {
      sessionStorage.setItem(KEY, JSON.stringify(place()));
      location.reload();
      return;
    }
    status.textContent = state.building ? 'tei serve: building' : state.failed ? 'tei serve: errors' : 'tei serve: live';
    problems.hidden = !state.failed;
    list.textContent = state.failed ? state.diagnostics.join('\n') : '';
    pdf.disabled = state.pdf === 'building';
    pdf.textContent = state.pdf === 'building' ? 'Building PDF' : 'Build PDF';
    pdfLink.hidden = state.pdf !== 'ready';
  }

  function start() {
    document.body.append(problems, bar);
    restore();
    var events = new EventSource('/__tei/events');
    events.onmessage = function (message) { show(JSON.parse(message.data)); };
    events.onerror = function () { status.textContent = 'tei serve: not reachable'; };
    window.addEventListener('pagehide', function () { events.close(); });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
