/**
 * The HTML report's stylesheet and script, inline in the page (the report is one file that opens
 * anywhere, offline, and fetches nothing). The script only filters what the server-side rendering
 * already wrote — by status, area and text — so the page is complete without it.
 */
export const REPORT_CSS = `
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f8fa}
/* One column for everything: the filter panel's border lines up with the cards' borders, and a
   phone keeps 16 px on each side. */
header,nav.filters,main,footer{width:min(100% - 32px,1068px);margin-left:auto;margin-right:auto}
header{padding:20px 0 12px}
h1{font-size:22px;margin:0 0 4px}
h2{font-size:17px;margin:24px 0 8px;display:flex;flex-wrap:wrap;gap:0 12px;align-items:baseline}
h2 .counts-text{font-size:13px;font-weight:400;color:#59636e}
.target{color:#59636e;margin:0 0 12px}
code,pre{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
/* URLs and IDs have no spaces: they break where they must, never past their box. */
code{overflow-wrap:anywhere}
/* Lines break at spaces; a word is split only when it is longer than the whole line. */
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:8px;margin:0;max-height:420px;overflow-y:auto}
input,select{font:inherit}
.counts{display:flex;flex-wrap:wrap;gap:12px;margin:12px 0}
.count{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:8px 14px;min-width:100px}
.count b{display:block;font-size:24px}
.count.passed b{color:#1a7f37}.count.failed b{color:#cf222e}.count.skipped b{color:#9a6700}
nav.filters{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:10px 14px}
nav.filters fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 10px}
nav.filters legend{float:left;font-weight:600;margin-right:6px}
nav.filters label{white-space:nowrap}
/* Room for the whole placeholder; on its own line when the row is too narrow for it. */
#text-filter{flex:1 1 20em;min-width:0;padding:3px 8px;border:1px solid #d0d7de;border-radius:6px}
#shown{color:#59636e;margin-left:auto;white-space:nowrap}
.case{background:#fff;border:1px solid #d0d7de;border-left-width:4px;border-radius:6px;margin:6px 0}
.case.passed{border-left-color:#1a7f37}.case.failed{border-left-color:#cf222e}.case.skipped{border-left-color:#d4a72c}
.case summary{cursor:pointer;padding:8px 12px;display:flex;flex-wrap:wrap;gap:2px 10px;align-items:baseline}
/* The badge, ID and duration keep their one line; the title takes the rest of the row. */
.case .badge,.case .id,.case .duration{flex:none;max-width:100%}
.case .title{flex:1 1 24em;min-width:0;overflow-wrap:anywhere}
.case .duration,.case .reason{color:#59636e;font-size:12.5px}
.case .reason{flex:1 1 100%;overflow-wrap:anywhere}
.badge{font-size:11px;font-weight:600;text-transform:uppercase;border-radius:10px;padding:1px 8px;color:#fff;white-space:nowrap}
.passed .badge{background:#1a7f37}.failed .badge{background:#cf222e}.skipped .badge{background:#9a6700}
dl.detail{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:6px 12px;margin:0;padding:4px 12px 12px}
dl.detail dt{font-weight:600;color:#59636e}
dl.detail dd{margin:0;min-width:0;overflow-wrap:anywhere}
.rules ul{padding-left:18px}
.rule .where{color:#59636e}
.rule p{margin:4px 0}
.rule.off .badge,.rule.unchecked .badge{background:#6e7781}
.levels{margin:8px 0 0;padding-left:18px}.rule-failures{font-size:12.5px;color:#cf222e}
.hidden{display:none}
footer{margin-top:24px;margin-bottom:24px;color:#59636e;font-size:12px}
/* A phone: badge, ID and duration on the first line, the title below at the card's full width;
   a detail's term above its value. */
@media (max-width:640px){
.case .title{order:1;flex-basis:100%}
.case .reason{order:2}
.case .duration{margin-left:auto}
dl.detail{grid-template-columns:minmax(0,1fr);gap:0}
dl.detail dd{margin-bottom:8px}
}
`;

export const REPORT_SCRIPT = `
(function () {
  var statusBoxes = Array.prototype.slice.call(document.querySelectorAll('input[name="status"]'));
  var areaSelect = document.getElementById("area-filter");
  var textInput = document.getElementById("text-filter");
  var shown = document.getElementById("shown");
  var cases = Array.prototype.slice.call(document.querySelectorAll("article.case"));
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.area"));
  function apply() {
    var statuses = statusBoxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    var area = areaSelect.value;
    var text = textInput.value.trim().toLowerCase();
    var count = 0;
    cases.forEach(function (el) {
      var ok = statuses.indexOf(el.getAttribute("data-status")) >= 0 &&
        (area === "" || el.getAttribute("data-area") === area) &&
        (text === "" || el.getAttribute("data-search").indexOf(text) >= 0);
      el.classList.toggle("hidden", !ok);
      if (ok) count++;
    });
    sections.forEach(function (s) {
      s.classList.toggle("hidden", s.querySelector("article.case:not(.hidden)") === null);
    });
    shown.textContent = count + " of " + cases.length + " shown";
  }
  statusBoxes.forEach(function (b) { b.addEventListener("change", apply); });
  areaSelect.addEventListener("change", apply);
  textInput.addEventListener("input", apply);
  apply();
})();
`;
