/** The report page's one stylesheet: layout, tables, and the chart tones (`tone-<name>`). */
export const REPORT_STYLE = `
:root{color-scheme:light;--ink:#1f2328;--muted:#656d76;--line:#d0d7de;--bg:#f6f8fa}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--ink);background:#fff}
header{padding:20px 32px 8px;border-bottom:1px solid var(--line);background:var(--bg)}
header h1{margin:0;font-size:24px}header p{margin:2px 0 8px;color:var(--muted)}
nav{display:flex;flex-wrap:wrap;gap:14px;padding:8px 0}nav a{color:#0969da;text-decoration:none}
main{padding:0 32px 40px;max-width:1100px}
section{border-bottom:1px solid var(--line);padding:12px 0 20px}
h2{font-size:20px;margin:12px 0 8px}h3{font-size:15px;margin:18px 0 6px}
.figures{display:flex;flex-wrap:wrap;gap:10px;margin:8px 0 12px}
.figures div{border:1px solid var(--line);border-radius:6px;padding:6px 12px;min-width:110px;background:#fff}
.figures dt{color:var(--muted);font-size:12px}.figures dd{margin:0;font-size:22px;font-weight:600}
table{border-collapse:collapse;margin:6px 0;width:100%}
th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}
code{font:12px ui-monospace,SFMono-Regular,Menlo,monospace;background:var(--bg);padding:1px 4px;border-radius:4px;word-break:break-all}
.title{color:var(--muted)}.empty,.more{color:var(--muted);font-style:italic}
.ok{color:#1a7f37}.bad{color:#cf222e;font-weight:600}
.chart{display:block;max-width:100%;height:auto;margin:6px 0;font-size:11px}
.chart text{fill:var(--ink)}.chart .heading{font-weight:600;font-size:12px}
.chart .axis{stroke:var(--muted)}.chart .edge{stroke:#8c959f;stroke-width:1;opacity:.6}
.chart .muted{opacity:.35}.chart .muted circle{fill:#8c959f}
.tone-candidate{fill:#d4a72c}.tone-validated{fill:#0969da}.tone-canonical{fill:#1a7f37}.tone-retired{fill:#8c959f}
.tone-case{fill:#0969da}.tone-pattern{fill:#8250df}.tone-principle{fill:#bf3989}
.tone-fresh{fill:#1a7f37}.tone-over{fill:#cf222e}.tone-selected{fill:#0969da}
`;
