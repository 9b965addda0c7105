/**
 * The page's own script (report and dashboard): renders a payload {view, charts} into the DOM:
 * summary, running tasks (live), Vega-Lite charts (compiled with vega-lite, drawn by vega as SVG),
 * the cell table, best/worst layout plots and failures. Live mode (dashboard) fetches the payload
 * and then follows server-sent events (the token, if any, travels in a cookie; the page removes
 * it from the address bar). Plain ES2017 for the browser; written without template
 * literals so it can live in this TypeScript string.
 */
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var views = [];
  var renders = 0;
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) { if (k === 'text') e.textContent = attrs[k]; else e.setAttribute(k, attrs[k]); }
    (children || []).forEach(function (c) { if (c) e.appendChild(c); });
    return e;
  }
  function fmt(v, digits) {
    if (v === null || v === undefined || (typeof v === 'number' && !isFinite(v))) return '–';
    return Number(v).toLocaleString('en-US', { minimumFractionDigits: digits || 0, maximumFractionDigits: digits || 0 });
  }
  // ISO 8601 (UTC): 2026-11-27 23:10:05 UTC, whatever the browser's locale.
  function isoTime(s) { var d = new Date(s); return isNaN(d.getTime()) ? '–' : d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC'); }
  function origins(o) {
    if (!o) return '–';
    var parts = [];
    ['computed', 'adopted', 'recovered'].forEach(function (k) { if (o[k] > 0) parts.push(o[k] + ' ' + k); });
    return parts.length ? parts.join(', ') : '–';
  }
  function pct(v) { return v === null || v === undefined || !isFinite(v) ? '–' : (100 * v).toFixed(1) + ' %'; }
  function duration(s) {
    if (s === null || s === undefined || !isFinite(s)) return '–';
    s = Math.round(s);
    if (s < 60) return s + ' s';
    if (s < 3600) return Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
    return Math.floor(s / 3600) + ' h ' + Math.floor((s % 3600) / 60) + ' min';
  }
  function card(label, value, cls) {
    return el('div', { 'class': 'card ' + (cls || '') }, [el('div', { 'class': 'value', text: value }), el('div', { 'class': 'label', text: label })]);
  }
  function table(headers, rows, cls) {
    var t = el('table', { 'class': cls || '' });
    t.appendChild(el('thead', null, [el('tr', null, headers.map(function (h) { return el('th', { text: h }); }))]));
    var body = el('tbody');
    rows.forEach(function (r) { body.appendChild(el('tr', null, r.map(function (c) { return el('td', { text: String(c) }); }))); });
    t.appendChild(body);
    return t;
  }
  function render(payload) {
    var v = payload.view, s = v.status;
    renders++;
    views.forEach(function (view) { view.finalize(); });
    views = [];
    document.title = 'wflo · ' + v.campaign;
    document.getElementById('campaign').textContent = v.campaign;
    var runText = !s.run ? 'never run' : s.run.state === 'running'
      ? 'running: pid ' + s.run.pid + ', ' + s.run.workers + ' workers, ' + s.ratePerMin.toFixed(1) + ' tasks/min'
      : s.run.state === 'killed' ? 'not running (last run was killed)' : 'not running (last run: ' + s.run.endState + ')';
    document.getElementById('meta').textContent = v.dir + ' · ' + runText + ' · data of ' + isoTime(v.generatedAt);
    var b = document.body;
    b.setAttribute('data-done', s.done); b.setAttribute('data-failed', s.failed); b.setAttribute('data-running', s.running);
    b.setAttribute('data-total', s.total); b.setAttribute('data-renders', renders);

    var summary = document.getElementById('summary');
    summary.textContent = '';
    var bestAep = null;
    v.cells.forEach(function (c) { if (c.best && (bestAep === null || c.best.aep > bestAep)) bestAep = c.best.aep; });
    [card('tasks', fmt(s.total)), card('done', fmt(s.done) + (s.total ? ' (' + pct(s.done / s.total) + ')' : ''), 'ok'),
     card('failed', fmt(s.failed), s.failed > 0 ? 'bad' : ''), card('running', fmt(s.running), s.running > 0 ? 'live' : ''),
     card('pending', fmt(s.pending + s.stale)), card('ETA', s.run && s.run.state === 'running' ? duration(s.etaS) : (s.complete ? 'complete' : '–')),
     card('best AEP (MWh)', fmt(bestAep))].forEach(function (c) { summary.appendChild(c); });
    var lowest = null;
    v.cells.forEach(function (c) { if (c.economics && (lowest === null || c.economics.lcoeBest < lowest.lcoeBest)) lowest = c.economics; });
    if (lowest) summary.appendChild(card('lowest LCOE (' + lowest.lcoeUnit + ')', lowest.lcoeBest.toFixed(2)));

    var running = document.getElementById('running');
    if (running) {
      running.textContent = '';
      var now = Date.now() / 1000;
      if (s.runningTasks.length === 0) running.appendChild(el('p', { 'class': 'note', text: 'No task is running.' }));
      else running.appendChild(table(['task', 'worker pid', 'attempt', 'running for'], s.runningTasks.map(function (r) {
        return [r.taskId, r.workerPid, r.attempt, duration(now - r.startedAt)];
      }), 'running-tasks'));
    }

    var charts = document.getElementById('charts');
    charts.textContent = '';
    payload.charts.forEach(function (c) {
      var box = el('div', { 'class': 'chart', id: 'chart-' + c.id, 'data-chart': c.id });
      charts.appendChild(el('section', null, [el('h2', { text: c.title }), c.note ? el('p', { 'class': 'note', text: c.note }) : null, box]));
      try {
        var compiled = vegaLite.compile(c.spec).spec;
        var view = new vega.View(vega.parse(compiled), { renderer: 'svg', container: box, hover: true });
        views.push(view);
        view.runAsync().then(function () { box.setAttribute('data-rendered', 'true'); }, function (err) { box.textContent = 'chart failed: ' + err; console.error(err); });
      } catch (err) { box.textContent = 'chart failed: ' + err; console.error(err); }
    });

    var cells = document.getElementById('cells');
    cells.textContent = '';
    // Best and worst by the cell's objective: AEP (MWh), or LCOE (lowest best) and NPV (highest best) with their currency.
    function ranked(r) { return !r ? '–' : r.text ? r.text + ' (AEP ' + fmt(r.aep) + ' MWh)' : fmt(r.aep) + ' MWh'; }
    cells.appendChild(table(['farm', 'type', 'turbines', 'done', 'results', 'failed', 'AEP measure', 'mean AEP (MWh)', 'ranked by', 'best', 'worst', 'gross AEP (MWh)', 'wake loss', 'capacity factor'],
      v.cells.map(function (c) {
        return [c.farmLabel, c.typeLabel, c.nTurbines, c.done + '/' + c.total, origins(c.origins), c.failed, c.measure || 'bins', c.aep ? fmt(c.aep.mean) : '–',
          (c.objective || 'aep').toUpperCase(), ranked(c.best), ranked(c.worst), (c.grossPerLayout ? 'mean ' : '') + fmt(c.grossAepMwh), pct(c.wakeLossMean), pct(c.capacityFactorMean)];
      }), 'cells'));
    if (v.cells.some(function (c) { return c.figuresNote; })) {
      v.cells.filter(function (c) { return c.figuresNote; }).forEach(function (c) {
        cells.appendChild(el('p', { 'class': 'note', text: c.label + ': no farm efficiency or wake loss: ' + c.figuresNote + '.' }));
      });
    }
    if (v.cells.some(function (c) { return c.economics; })) {
      // Farms with economics: the cost of energy the gate computed for each result.
      cells.appendChild(el('h3', { text: 'Cost of energy' }));
      cells.appendChild(table(['farm', 'type', 'mean LCOE', 'lowest LCOE', 'mean NPV', 'mean cable length (km)'],
        v.cells.filter(function (c) { return c.economics; }).map(function (c) {
          var e = c.economics;
          return [c.farmLabel, c.typeLabel, e.lcoeMean.toFixed(2) + ' ' + e.lcoeUnit, e.lcoeBest.toFixed(2) + ' ' + e.lcoeUnit, (e.npvMean / 1e6).toFixed(2).replace(/^-/, '−') + ' ' + e.millionsUnit, (e.cableMeanM / 1000).toFixed(2)];
        }), 'economics'));
      var units = {};
      v.cells.forEach(function (c) { if (c.economics) units[c.economics.currency] = true; });
      cells.appendChild(el('p', { 'class': 'note', text: 'Money in ' + Object.keys(units).join(', ') + ' (the unit of the cost model; the DTU offshore model is in 2017 euros).' }));
    }
    if (v.cells.some(function (c) { return c.measure && c.measure !== 'bins'; })) {
      cells.appendChild(el('p', { 'class': 'note', text: 'AEP measure: bins = the wind rose\'s bins as listed (the benchmark measure); spread:N = each bin spread over its width in N sub-directions; gaussian:S:N = wind-direction uncertainty of S degrees on N points; refine:S = the rose interpolated to every S degrees. AEPs of cells on different measures do not compare.' }));
    }

    var provenance = document.getElementById('provenance');
    if (provenance) {
      provenance.textContent = '';
      var pv = v.provenance || { total: 0, rows: [] };
      if (pv.total === 0) provenance.appendChild(el('p', { 'class': 'note', text: v.partial ? 'Counting…' : 'Every result was computed by this campaign; none carries a reported AEP.' }));
      else {
        if (pv.total > pv.rows.length) provenance.appendChild(el('p', { 'class': 'note', text: 'The ' + pv.rows.length + ' of ' + pv.total + ' rows whose AEP differs most from the reported one.' }));
        provenance.appendChild(table(['task', 'result', 'source', 'AEP (MWh)', 'AEP reported (MWh)', 'difference'], pv.rows.map(function (r) {
          var diff = r.aepReported === null ? '–' : ((r.aep - r.aepReported) / Math.abs(r.aepReported) * 100).toPrecision(2) + ' %';
          return [r.taskId, r.origin, r.source, fmt(r.aep, 2), r.aepReported === null ? '–' : fmt(r.aepReported, 2), diff];
        }), 'provenance'));
      }
    }

    var layouts = document.getElementById('layouts');
    layouts.textContent = '';
    var byCell = {};
    v.layouts.forEach(function (l) { (byCell[l.label] = byCell[l.label] || []).push(l); });
    Object.keys(byCell).forEach(function (label) {
      var row = el('div', { 'class': 'layout-row' }, [el('h3', { text: label })]);
      var pair = el('div', { 'class': 'layout-pair' });
      byCell[label].forEach(function (l) {
        var fig = el('figure', { 'class': 'layout ' + l.which, 'data-task': l.taskId });
        fig.innerHTML = l.svg;
        pair.appendChild(fig);
      });
      row.appendChild(pair);
      layouts.appendChild(row);
    });
    if (v.layoutCellsShown < v.cells.filter(function (c) { return c.best; }).length) {
      layouts.appendChild(el('p', { 'class': 'note', text: 'Layouts of the first ' + v.layoutCellsShown + ' cells shown.' }));
    }
    if (v.layouts.length === 0) layouts.appendChild(el('p', { 'class': 'note', text: v.partial ? 'Drawing the layouts…' : 'No results yet.' }));

    var failures = document.getElementById('failures');
    failures.textContent = '';
    if (v.failures.length === 0) failures.appendChild(el('p', { 'class': 'note', text: 'No failed tasks.' }));
    else {
      if (s.failed > v.failures.length) failures.appendChild(el('p', { 'class': 'note', text: 'Latest ' + v.failures.length + ' of ' + s.failed + ' failures.' }));
      failures.appendChild(table(['task', 'attempts', 'last error'], v.failures.map(function (f) { return [f.taskId, f.attempts, f.error]; }), 'failures'));
    }
  }

  var inline = document.getElementById('wflo-data');
  if (inline) { render(JSON.parse(inline.textContent)); return; }
  // The token (non-loopback binds) came in the printed URL; the answer to this page set it as a
  // cookie, which every request below carries. Take it out of the address bar and the history.
  if (/[?&]token=/.test(location.search)) {
    var params = new URLSearchParams(location.search);
    params.delete('token');
    var rest = params.toString();
    history.replaceState(history.state, '', location.pathname + (rest ? '?' + rest : '') + location.hash);
  }
  var state = document.getElementById('live-state');
  var say = function (text) { if (state) state.textContent = text; };
  function follow() {
    var source = new EventSource('api/events');
    source.addEventListener('data', function (e) { render(JSON.parse(e.data)); say('live'); });
    source.onopen = function () { say('live'); };
    source.onerror = function () {
      // A refused stream (503: the server has its most live pages) is not retried by the
      // browser itself: try again later. A dropped one reconnects by itself.
      if (source.readyState === 2) { say('server busy, retrying…'); setTimeout(follow, 10000); }
      else say('reconnecting…');
    };
  }
  fetch('api/data', { credentials: 'same-origin' }).then(function (r) {
    if (r.status === 401) throw new Error('token required: open the URL printed by wflo dashboard');
    if (!r.ok) throw new Error('the dashboard server answered ' + r.status);
    return r.json();
  }).then(render).then(follow).catch(function (err) { console.error(err); say(String(err.message || err)); });
})();
`;
