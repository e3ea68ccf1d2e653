// The report pages' CSS and script, inline in every page: a page is one file that needs nothing
// else (no network, no fonts, no other file). Nothing may be wider than the window: long names
// and texts wrap anywhere, tables that cannot shrink scroll inside their own box (.tw), charts
// scale down (svg max-width), and the contents bar wraps.
#include "reporters/html_page.hpp"

namespace cuconform::html {

const char* page_css() {
  return R"(
:root{--pass:#2e7d32;--fail:#c62828;--timeout:#ef6c00;--crash:#6a1b9a;--ns:#9e9e9e;--planned:#90caf9;--navh:40px}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;margin:0;color:#1f2328;background:#f6f7f9}
header{background:#1f2937;color:#fff;padding:14px 28px}
header h1{margin:0 0 2px;font-size:21px;overflow-wrap:anywhere}
header .sub{opacity:.85;font-size:13px;overflow-wrap:anywhere}
nav.toc{position:sticky;top:0;z-index:5;background:#fff;border-bottom:1px solid #d8dde3;box-shadow:0 1px 3px rgba(0,0,0,.06);padding:6px 28px;display:flex;flex-wrap:wrap;gap:2px 16px;font-size:13px}
nav.toc a{color:#0b57d0;text-decoration:none;white-space:nowrap}
nav.toc a:hover{text-decoration:underline}
nav.toc .cnt{color:#57606a}
nav.toc .cnt.bad{color:var(--fail);font-weight:600}
[id]{scroll-margin-top:calc(var(--navh) + 8px)}
main{padding:4px 28px 40px;max-width:1500px}
section{background:#fff;border:1px solid #e1e4e8;border-radius:6px;padding:10px 18px 14px;margin:14px 0;min-width:0}
h2{font-size:17px;margin:4px 0 10px}
h3{font-size:15px;margin:14px 0 6px}
a{color:#0b57d0}
table{border-collapse:collapse;font-size:13px;margin:4px 0}
th,td{border:1px solid #d8dde3;padding:3px 8px;text-align:left;vertical-align:top}
td{overflow-wrap:break-word}
th{background:#eef1f4;font-weight:600}
td.n{text-align:right;font-variant-numeric:tabular-nums;overflow-wrap:normal}
.tw{overflow-x:auto;max-width:100%}
.kv th{min-width:110px}
.kv td{max-width:420px}
.env{display:flex;flex-wrap:wrap;gap:18px;align-items:flex-start}
.env>.tw{flex:0 1 auto}
.kv tr:first-child th{background:#dde3ea;text-transform:uppercase;font-size:11px;letter-spacing:.04em}
.badge{display:inline-block;padding:0 8px;border-radius:9px;color:#fff;font-size:12px;font-weight:600;white-space:nowrap}
.v-pass{background:var(--pass)}.v-fail{background:var(--fail)}.v-timeout{background:var(--timeout)}
.v-crash{background:var(--crash)}.v-not-supported{background:var(--ns)}.v-planned{background:var(--planned);color:#123}
.v-flake{background:#c0a000}.v-recorded{background:#80cbc4;color:#123}
.v-not-run{background:#6a1b9a}.v-inconclusive{background:#8d6e63}
.known{background:#ffe082;color:#222}
.kb{display:block;background:#fff3c4;border:1px solid #f1d37a;border-radius:4px;padding:3px 8px;margin:10px 0 3px;font-size:12px;overflow-wrap:anywhere}
.headline{font-size:16px;font-weight:600;margin:4px 0 8px}
.ok{color:var(--pass)}.bad{color:var(--fail)}
.case{border-left:4px solid var(--fail);padding:6px 12px;margin:10px 0;background:#fff7f7;min-width:0}
.case.is-known{border-left-color:#f9a825;background:#fffcf0}
.case h3{margin:2px 0 4px;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px;overflow-wrap:anywhere}
.meta{color:#57606a;font-size:12px;overflow-wrap:anywhere}
.eo{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:10px}
.eo h4{margin:4px 0 0;font-size:12px;color:#57606a}
@media (max-width:760px){.eo{grid-template-columns:minmax(0,1fr)}}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #e1e4e8;padding:5px 8px;margin:2px 0;font-size:12px;max-height:24em;overflow-y:auto}
code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:break-word}
.charts{display:flex;flex-wrap:wrap;gap:16px 28px;align-items:flex-start;margin:6px 0}
figure.chart{margin:0;max-width:100%}
figure.chart figcaption{font-size:12px;font-weight:600;overflow-wrap:anywhere;margin:0 0 2px}
figure.chart svg,svg.stack{display:block;max-width:100%;height:auto}
svg text{font-family:system-ui,Helvetica,Arial,sans-serif;font-size:11px;fill:#1f2328}
svg .ct{font-size:12px;font-weight:600}
.mx th,.mx td{padding:3px 5px}
.mx th .badge{padding:0 5px;font-size:11px}
.mx td.c{text-align:center;min-width:30px;font-size:11px;font-weight:600;overflow-wrap:normal}
.mx td.n a,.mx td.c a{display:block;color:inherit;text-decoration:none}
.mx td.n a:hover,.mx td.c a:hover{text-decoration:underline}
.mx th a{color:inherit}
.mx th.d{text-align:center;font-size:12px;min-width:58px}
.mx th.d small{display:block;font-weight:400;font-size:10px;color:#57606a;overflow-wrap:anywhere;max-width:96px}
details>summary{cursor:pointer;font-weight:600;margin:6px 0}
details.grp{border:1px solid #e1e4e8;border-radius:5px;margin:8px 0;padding:0 10px;background:#fcfcfd}
details.grp>summary{margin:0;padding:6px 0}
details.grp .cnt{color:#57606a;font-weight:400}
tr.failing td{background:#fff1f1}
.note{color:#57606a;font-size:12px}
.filters{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:center;margin:4px 0 8px}
.filters input,.filters select{box-sizing:border-box}
.filters input[type=search]{flex:1 1 240px;min-width:0;max-width:460px;padding:4px 8px;font:inherit;border:1px solid #c8cfd6;border-radius:4px}
.filters select,.filters button,button.more{font:inherit;font-size:13px;padding:2px 6px;max-width:100%}
.chips{display:flex;flex-wrap:wrap;gap:4px 6px;align-items:center}
.chip{display:inline-flex;align-items:center;gap:3px;font-size:12px;cursor:pointer;user-select:none;white-space:nowrap}
.chip input{margin:0}
table.cl{width:100%;table-layout:fixed}
table.cl td.c{text-align:center;font-size:11px;font-weight:600;padding:3px 0}
table.cl tr.det td{background:#f6f8fa}
table.cl button.m{font-size:11px;padding:0 4px;margin-left:4px;cursor:pointer}
table.kvs td,table.kvs th{font-size:12px;padding:1px 6px}
footer{margin-top:10px;overflow-wrap:anywhere}
)";
}

// The page's script: the contents bar (an entry for every section it does not list yet), the
// case list (filters by area, verdict, device, known list and text; its state in the address
// as #cases?area=ldgsts&verdict=fail, so a link from the matrix lands on a filtered list), and
// opening a collapsed group when a link points into it.
const char* page_script() {
  return R"JS(
(function () {
  'use strict';
  var root = document.documentElement, nav = document.querySelector('nav.toc');
  function each(list, f) { Array.prototype.forEach.call(list, f); }
  function navHeight() { if (nav) root.style.setProperty('--navh', nav.offsetHeight + 'px'); }
  if (nav) {
    var listed = {}, n = 0;
    each(nav.querySelectorAll('a'), function (a) { listed[a.getAttribute('href').slice(1)] = 1; });
    each(document.querySelectorAll('main > section'), function (s) {
      var h = s.querySelector('h2');
      if (!h) return;
      if (!s.id) s.id = 'section-' + (++n);
      if (listed[s.id]) return;
      var a = document.createElement('a');
      a.href = '#' + s.id;
      a.textContent = h.textContent;
      nav.appendChild(a);
      listed[s.id] = 1;
    });
    navHeight();
    window.addEventListener('resize', navHeight);
  }
  // A link to something inside a closed group opens the group first.
  function reveal(id) {
    var e = document.getElementById(id);
    if (!e) return false;
    for (var p = e; p; p = p.parentElement) if (p.tagName === 'DETAILS') p.open = true;
    e.scrollIntoView();
    return true;
  }

  var data = document.getElementById('case-data');
  var D = data ? JSON.parse(data.textContent) : null;
  var S = {q: '', area: '', v: null, dev: 0, known: '', differ: false, limit: 200};
  var q = document.getElementById('cq'), area = document.getElementById('ca'), dev = document.getElementById('cd'),
      known = document.getElementById('ck'), differ = document.getElementById('cdf'),
      chips = document.querySelectorAll('#cv input'), tbody = document.querySelector('#ct tbody'),
      count = document.getElementById('cn'), more = document.getElementById('cm');
  var FAIL = {fail: 1, timeout: 1, crash: 1}, cards = {}, hay = [];
  function arr(x) { return Array.isArray(x) ? x : [x]; }
  function h(s) {
    return String(s).replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; });
  }
  function name(c) { return c[0] < 0 ? c[1] : D.rules[c[0]] + (c[1] === '' ? '' : '.' + c[1]); }
  function nameHtml(n) { return h(n).replace(/\./g, '.<wbr>'); }
  function reasons(c) {
    var seen = {}, out = [];
    each(arr(c[4]), function (r) { if (r > 0 && !seen[r]) { seen[r] = 1; out.push(D.texts[r]); } });
    return out;
  }
  function rgba(hex, a) {
    var n = parseInt(hex.slice(1), 16);
    return 'rgba(' + (n >> 16) + ',' + ((n >> 8) & 255) + ',' + (n & 255) + ',' + a + ')';
  }
  function match(c, i) {
    if (S.area && D.areas[c[2]] !== S.area) return false;
    var v = arr(c[3]), k = arr(c[5]);
    if (S.v || S.known) {
      var ok = false;
      for (var j = 0; j < v.length && !ok; ++j) {
        if (v[j] < 0 || (S.dev && j !== S.dev - 1)) continue;
        var vn = D.verdicts[v[j]];
        if (S.v && !S.v.has(vn)) continue;
        if (S.known === 'new' && !(FAIL[vn] && !k[j])) continue;
        if (S.known === 'known' && !k[j]) continue;
        ok = true;
      }
      if (!ok) return false;
    }
    if (S.differ) {
      var first = null, differs = false;
      each(v, function (x) { if (x >= 0) { if (first === null) first = x; else if (x !== first) differs = true; } });
      if (!differs) return false;
    }
    if (S.q) {
      if (hay[i] === undefined) hay[i] = (name(c) + ' ' + reasons(c).join(' ')).toLowerCase();
      var words = S.q.toLowerCase().split(/\s+/);
      for (var w = 0; w < words.length; ++w) if (words[w] && hay[i].indexOf(words[w]) < 0) return false;
    }
    return true;
  }
  function row(c, i) {
    var nm = name(c), v = arr(c[3]), r = arr(c[4]), k = arr(c[5]), m = c[7];
    var s = '<tr data-name="' + h(nm) + '" data-i="' + i + '"' + (v.some(function (x) { return FAIL[D.verdicts[x]]; }) ? ' class="failing"' : '') +
        '><td><code>' + nameHtml(nm) + '</code>';
    if (cards['f-' + nm]) s += ' <a href="#f-' + h(nm) + '">details</a>';
    if (m && m.length) s += '<button type="button" class="m" data-i="' + i + '">' + m.length / 2 + ' measurement' + (m.length > 2 ? 's' : '') + '</button>';
    s += '</td>';
    if (!D.cols) {
      var vn = D.verdicts[v[0]];
      s += '<td><span class="badge v-' + vn + '">' + vn + '</span>' + (k[0] ? ' <span class="badge known">known</span>' : '') +
          '</td><td class="n">' + c[6] + '</td><td>' + h(D.texts[r[0]]) + '</td>';
    } else {
      for (var j = 0; j < D.cols.length; ++j) {
        if (v[j] < 0) { s += '<td class="c" title="' + h(D.runs[j]) + ': absent">·</td>'; continue; }
        var x = D.verdicts[v[j]];
        s += '<td class="c" style="background:' + rgba(D.colors[v[j]], x === 'pass' ? 0.35 : 0.55) + '" title="' +
            h(D.cols[j] + ' ' + D.runs[j] + ': ' + x + (r[j] > 0 ? ' — ' + D.texts[r[j]] : '') + (k[j] ? ' (known)' : '')) + '">' +
            D.abbr[v[j]] + (k[j] ? '*' : '') + '</td>';
      }
      s += '<td>' + h(reasons(c).join(' | ')) + '</td>';
    }
    return s + '</tr>';
  }
  function render() {
    var rows = [], total = 0;
    for (var i = 0; i < D.cases.length; ++i) {
      if (!match(D.cases[i], i)) continue;
      if (total++ < S.limit) rows.push(row(D.cases[i], i));
    }
    tbody.innerHTML = rows.join('');
    count.textContent = total + ' of ' + D.cases.length + ' cases' + (rows.length < total ? ', the first ' + rows.length + ' shown' : '');
    more.hidden = rows.length >= total;
    more.textContent = 'show all ' + total;
  }
  function sync() {
    q.value = S.q;
    area.value = S.area;
    if (dev) dev.value = String(S.dev);
    if (known) known.value = S.known;
    if (differ) differ.checked = S.differ;
    each(chips, function (c) { c.checked = !S.v || S.v.has(c.value); });
  }
  function address() {
    var p = [];
    if (S.area) p.push('area=' + encodeURIComponent(S.area));
    if (S.v) p.push('verdict=' + Array.from(S.v).join(','));
    if (S.dev) p.push('device=' + S.dev);
    if (S.known) p.push('known=' + S.known);
    if (S.differ) p.push('differ=1');
    if (S.q) p.push('q=' + encodeURIComponent(S.q));
    return '#cases' + (p.length ? '?' + p.join('&') : '');
  }
  function fromControls() {
    S.q = q.value.trim();
    S.area = area.value;
    S.dev = dev ? parseInt(dev.value, 10) || 0 : 0;
    S.known = known ? known.value : '';
    S.differ = differ ? differ.checked : false;
    var on = [];
    each(chips, function (c) { if (c.checked) on.push(c.value); });
    S.v = on.length === chips.length ? null : new Set(on);
    S.limit = 200;
    render();
    history.replaceState(null, '', address());
  }
  function fromAddress() {
    var a = location.hash;
    if (a !== '#cases' && a.indexOf('#cases?') !== 0) return false;
    var p = new URLSearchParams(a.slice(7));
    S.q = p.get('q') || '';
    S.area = p.get('area') || '';
    var v = p.get('verdict');
    S.v = v ? new Set(v.split(',')) : null;
    S.dev = parseInt(p.get('device') || '0', 10) || 0;
    S.known = p.get('known') || '';
    S.differ = p.get('differ') === '1';
    S.limit = 200;
    sync();
    render();
    document.getElementById('cases').scrollIntoView();
    return true;
  }
  function onAddress() {
    if (D && fromAddress()) return;
    if (location.hash.length > 1) reveal(decodeURIComponent(location.hash.slice(1)));
  }
  document.addEventListener('click', function (e) {
    var a = e.target.closest && e.target.closest('a[href^="#"]');
    if (a && a.getAttribute('href') === location.hash) { e.preventDefault(); onAddress(); }
  });
  window.addEventListener('hashchange', onAddress);
  if (D) {
    each(document.querySelectorAll('article.case[id]'), function (a) { cards[a.id] = 1; });
    q.addEventListener('input', fromControls);
    each([area, dev, known, differ], function (c) { if (c) c.addEventListener('change', fromControls); });
    each(chips, function (c) { c.addEventListener('change', fromControls); });
    each(document.querySelectorAll('#cv button'), function (b) {
      b.addEventListener('click', function () {
        var set = b.getAttribute('data-set');
        each(chips, function (c) { c.checked = !set || set.split(',').indexOf(c.value) >= 0; });
        fromControls();
      });
    });
    more.addEventListener('click', function () { S.limit = Infinity; render(); });
    tbody.addEventListener('click', function (e) {
      var b = e.target.closest && e.target.closest('button.m');
      if (!b) return;
      var tr = b.closest('tr'), next = tr.nextElementSibling;
      if (next && next.classList.contains('det')) { next.remove(); return; }
      var m = D.cases[+b.getAttribute('data-i')][7], s = '<table class="kvs">';
      for (var j = 0; j < m.length; j += 2) s += '<tr><td><code>' + h(D.mnames[m[j]]) + '</code></td><td class="n">' + m[j + 1] + '</td></tr>';
      var d = document.createElement('tr');
      d.className = 'det';
      d.innerHTML = '<td colspan="' + tr.children.length + '">' + s + '</table></td>';
      tr.after(d);
    });
    if (!fromAddress()) render();
  }
  if (!D || location.hash.indexOf('#cases') !== 0) onAddress();
})();
)JS";
}

}  // namespace cuconform::html
