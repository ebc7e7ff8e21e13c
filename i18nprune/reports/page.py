"""The report as one self-contained HTML page.

Everything is inline — style, script, the coverage chart as SVG — and the page's Content
Security Policy forbids every fetch, so it opens the same from a CI artifact, a code host or a
laptop offline. The key table filters and sorts in the page (no server); status is written as
a word, never only as a colour; links to files are relative (see `render_page`)."""

from __future__ import annotations

import html
import posixpath

from i18nprune.ops.report import STATUSES, ReportData, WorkspaceChanges
from i18nprune.reports.text import change_summary, coverage_move, percent

_STATUS_NAMES = {
    "missing": "missing",
    "unused": "unused",
    "stale": "stale",
    "needsReview": "needs review",
    "quality": "quality",
}

_STYLE = """
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#59636e;--bg:#fff;--card:#f6f8fa;
--line:#d1d9e0;--bar:#2f6fbf;--low:#b35900;--focus:#0969da}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;
--card:#161b22;--line:#3d444d;--bar:#4493f8;--low:#db8a3a;--focus:#4493f8}}
*{box-sizing:border-box}
body{margin:0 auto;max-width:72rem;padding:1rem;font:15px/1.45 system-ui,sans-serif;
color:var(--fg);background:var(--bg)}
h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.6rem 0 .5rem}
h3{font-size:1rem;margin:1.2rem 0 .4rem}h2 code{font-size:1em}
main>section[id]{border-top:2px solid var(--line);margin-top:2rem}
.meta{color:var(--muted);margin:0}
.cards{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0;padding:0;list-style:none}
.cards li{background:var(--card);border:1px solid var(--line);border-radius:6px;
padding:.4rem .7rem;min-width:7.5rem}
.cards b{display:block;font-size:1.3rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);
vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
th button{font:inherit;font-weight:600;background:none;border:0;color:inherit;padding:0;
white-space:nowrap;cursor:pointer}
th button::after{content:" ↕";color:var(--muted)}
th[aria-sort=ascending] button::after{content:" ↑"}
th[aria-sort=descending] button::after{content:" ↓"}
code{font-family:ui-monospace,monospace;font-size:.9em;overflow-wrap:anywhere}
a{color:var(--focus)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.filters{display:flex;flex-wrap:wrap;gap:.5rem;align-items:end;margin:.5rem 0}
.filters label{display:flex;flex-direction:column;font-size:.85rem;color:var(--muted)}
input,select{font:inherit;padding:.25rem .4rem;color:var(--fg);background:var(--bg);
border:1px solid var(--line);border-radius:4px}
svg text{fill:var(--fg);font:12px system-ui,sans-serif}
svg .bar{fill:var(--bar)}svg .low{fill:var(--low)}svg .track{fill:var(--card);stroke:var(--line)}
.status{font-weight:600}
.note{margin:.2rem 0}
li,p{overflow-wrap:anywhere}
@media (max-width:40rem){body{padding:.6rem}.cards li{min-width:45%}
td.detail,th.detail{display:none}}
"""

FIRST_ROWS = 500
"""Rows a key table shows until asked for all: laying out thousands of rows took a browser
seconds (7,000 rows: 0.8 s of a 1.1 s load on a loaded 2-core machine), and nobody reads them
unfiltered. The page is written with the rest hidden; without scripts a style shows them."""

# Filter by text and status, sort by any column; rows are never rebuilt, only hidden or moved.
# Each row's text is lowered once and each sort reads its column once: reading the cells
# again in every comparison took seconds over thousands of rows.
_SCRIPT = """
(function(){
var FIRST=@FIRST@,collator=new Intl.Collator();
Array.prototype.forEach.call(document.querySelectorAll('section.keys'),function(section){
var table=section.querySelector('table');if(!table)return;
var body=table.tBodies[0],rows=Array.prototype.slice.call(body.rows);
var text=section.querySelector('input[type=search]'),status=section.querySelector('select');
var shown=section.querySelector('.shown'),more=section.querySelector('button.more'),all=false;
rows.forEach(function(row){row.searchText=row.textContent.toLowerCase();});
function apply(){var needle=text.value.toLowerCase(),wanted=status.value,count=0;
rows.forEach(function(row){var ok=(!wanted||row.dataset.status===wanted)&&
(!needle||row.searchText.indexOf(needle)>=0);if(ok)count++;
var hide=!ok||(!all&&count>FIRST);if(row.hidden!==hide)row.hidden=hide;});
var visible=all?count:Math.min(count,FIRST);
shown.textContent=visible===count||count===rows.length?visible+' of '+rows.length+' shown':
visible+' of '+count+' matching shown ('+rows.length+' in all)';
more.hidden=visible===count;more.textContent='Show all '+count;}
text.addEventListener('input',apply);status.addEventListener('change',apply);
more.addEventListener('click',function(){all=true;apply();text.focus();});
var cells=table.tHead.rows[0].cells;
Array.prototype.forEach.call(cells,function(cell,index){
var button=cell.querySelector('button');if(!button)return;
button.addEventListener('click',function(){
var order=cell.getAttribute('aria-sort')==='ascending'?'descending':'ascending';
Array.prototype.forEach.call(cells,function(c){c.removeAttribute('aria-sort');});
cell.setAttribute('aria-sort',order);var sign=order==='ascending'?1:-1;
var keyed=rows.map(function(row){var c=row.cells[index],t=c.dataset.sort||c.textContent;
return {t:t,n:t===''?NaN:Number(t),row:row};});
keyed.sort(function(a,b){if(!isNaN(a.n)&&!isNaN(b.n))return sign*(a.n-b.n);
return sign*collator.compare(a.t,b.t);});
rows=keyed.map(function(k){return k.row;});var moved=document.createDocumentFragment();
rows.forEach(function(row){moved.appendChild(row);});body.appendChild(moved);apply();});});
apply();});})();
""".replace("@FIRST@", str(FIRST_ROWS))

_POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def render_page(data: ReportData, link_base: str | None = "") -> str:
    """The page of one project. `link_base`: the path from the page's folder to the project
    root (`""`: the page sits at the root; `../app`), prefixed to every file link; None: no
    links."""
    title = f"Translations of {data.project}"
    meta = (
        f"Source locale <code>{html.escape(data.source_locale)}</code> · "
        f"{data.counts.files_scanned} files scanned · generated "
        f"{html.escape(data.generated_at)} by {html.escape(data.tool)}"
    )
    return _document(title, meta, _project(data, link_base, "", 2))


def render_workspace_page(
    name: str,
    projects: list[tuple[str, ReportData | None, list[str]]],
    link_base: str | None = "",
    changes: WorkspaceChanges | None = None,
) -> str:
    """The page of a workspace: what changed since its baseline (`changes`, when compared
    with one), a table of its projects, then each project's sections. `projects`: (folder
    relative to the workspace root, its document or None when its run failed, the errors
    that say why); `link_base`: from the page's folder to the workspace root."""
    esc = html.escape
    rows = []
    sections = []
    for index, (rel, data, errors) in enumerate(projects):
        anchor = f"p{index}"
        if data is None:
            rows.append(
                f'<tr><td><a href="#{anchor}"><code>{esc(rel)}</code></a></td>'
                f'<td colspan="6">failed: {esc("; ".join(errors))}</td></tr>'
            )
            sections.append(
                f'<section id="{anchor}" aria-labelledby="{anchor}-title">'
                f'<h2 id="{anchor}-title"><code>{esc(rel)}</code></h2>'
                f"<p>No report: {esc('; '.join(errors))}</p></section>"
            )
            continue
        counts = data.counts
        targets = [row for row in data.locales if not row.source]
        lowest = min(targets, key=lambda row: row.coverage) if targets else None
        low = f"{lowest.locale} {percent(lowest.coverage)}" if lowest else "—"
        unused = "not judged" if counts.cleanup_refused else str(counts.unused)
        rows.append(
            f'<tr><td><a href="#{anchor}"><code>{esc(rel)}</code></a></td>'
            f'<td class="num">{counts.source_keys}</td><td>{esc(low)}</td>'
            f'<td class="num">{counts.missing}</td><td class="num">{esc(unused)}</td>'
            f'<td class="num">{counts.stale + counts.needs_review}</td>'
            f'<td class="num">{counts.quality_errors}</td></tr>'
        )
        base = link_base  # the project's folder as seen from the page
        if base is not None and rel != ".":
            base = posixpath.join(base, rel)
        sections.append(
            f'<section id="{anchor}" aria-labelledby="{anchor}-title">'
            f'<h2 id="{anchor}-title"><code>{esc(rel)}</code></h2>'
            + _project(data, base, f"{anchor}-", 3)
            + "</section>"
        )
    table = (
        '<section aria-labelledby="projects"><h2 id="projects">Projects</h2>'
        '<div class="scroll"><table><thead><tr><th>Project</th><th class="num">Source keys</th>'
        '<th>Lowest coverage</th><th class="num">Missing</th><th class="num">Unused</th>'
        '<th class="num">Stale or to review</th><th class="num">Quality errors</th></tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></div></section>"
    )
    meta = f"{len(projects)} project(s)"
    top = _workspace_changes(changes, projects) if changes is not None else ""
    return _document(f"Translations of {name}", meta, top + table + "".join(sections))


def _workspace_changes(
    changes: WorkspaceChanges, projects: list[tuple[str, ReportData | None, list[str]]]
) -> str:
    """The workspace's changes since its baseline, a line a project, each linked to the
    project's own changes."""
    esc = html.escape
    items = [
        f"<li>Removed project: <code>{esc(rel)}</code></li>" for rel in changes.removed_projects
    ]
    for index, (rel, data, _) in enumerate(projects):
        name = f"<code>{esc(rel)}</code>"
        if data is None or data.changes is None:
            if rel in changes.new_projects:  # its run failed: no document to list its keys
                items.append(f"<li>New project: {name}</li>")
            continue
        link = f'<a href="#p{index}-changes">{name}</a>'
        label = "New project " if data.changes.new_project else ""
        items.append(f"<li>{label}{link}: {esc(change_summary(data.changes))}</li>")
    uncompared = [
        rel
        for rel, _, _ in projects
        if rel not in changes.compared and rel not in changes.new_projects
    ]
    if uncompared:
        shown = ", ".join(f"<code>{esc(rel)}</code>" for rel in uncompared)
        items.append(f"<li>Not compared (the baseline has no report of them): {shown}</li>")
    return (
        _heading("changes", f"Since {esc(changes.baseline_generated_at)}", 2)
        + f"<ul>{''.join(items)}</ul></section>"
    )


def _document(title: str, meta: str, main: str) -> str:
    esc = html.escape
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="generator" content="i18nprune report">',
            f'<meta http-equiv="Content-Security-Policy" content="{_POLICY}">',
            '<meta name="viewport" content="width=device-width,initial-scale=1">',
            f"<title>{esc(title)} — i18nprune report</title>",
            f"<style>{_STYLE}</style>",
            "<noscript><style>tr[hidden]{display:table-row}</style></noscript></head><body>",
            f'<header><h1>{esc(title)}</h1><p class="meta">{meta}</p></header>',
            f"<main>{main}</main>",
            f"<script>{_SCRIPT}</script></body></html>",
            "",
        ]
    )


def _project(data: ReportData, link_base: str | None, ids: str, level: int) -> str:
    """One project's sections; `ids` prefixes every element id, `level` is their heading's."""
    esc = html.escape
    counts = data.counts
    unused = "not judged" if counts.cleanup_refused else str(counts.unused)
    cards = [
        ("source keys", str(counts.source_keys)),
        ("missing", str(counts.missing)),
        ("unused", unused),
        ("stale", str(counts.stale)),
        ("needs review", str(counts.needs_review)),
        ("quality errors", str(counts.quality_errors)),
        ("quality warnings", str(counts.quality_warnings)),
        ("dynamic sites", str(counts.dynamic)),
    ]
    parts = []
    if data.changes is not None:
        parts.append(_changes(data, ids, level))
    parts.append(_heading(ids + "summary", "Summary", level))
    parts.append('<ul class="cards">')
    parts += [f"<li><b>{esc(value)}</b>{esc(label)}</li>" for label, value in cards]
    parts.append("</ul>")
    if counts.cleanup_refused:
        parts.append(
            '<p class="note">Unused keys are not judged: <code>cleanup</code> refused on this '
            "evidence (see the notes below).</p>"
        )
    parts.append("</section>")
    parts.append(_coverage(data, ids, level))
    parts.append(_keys(data, link_base, ids, level))
    parts.append(_dynamic(data, link_base, ids, level))
    parts.append(_notes(data, ids, level))
    return "".join(parts)


def _heading(anchor: str, text: str, level: int, classes: str = "") -> str:
    """A section's opening tag and its heading."""
    kind = f' class="{classes}"' if classes else ""
    return f'<section{kind} aria-labelledby="{anchor}"><h{level} id="{anchor}">{text}</h{level}>'


def _link(file: str | None, line: int | None, link_base: str | None) -> str:
    if not file:
        return ""
    label = html.escape(f"{file}:{line}" if line else file)
    if link_base is None:
        return f"<code>{label}</code>"
    target = posixpath.join(link_base, file) if link_base else file
    anchor = f"#L{line}" if line else ""
    return f'<a href="{html.escape(target + anchor)}"><code>{label}</code></a>'


def _coverage(data: ReportData, ids: str, level: int) -> str:
    esc = html.escape
    rows = data.locales
    height = 22 * len(rows) + 8
    label_width = 12 * max((len(row.locale) for row in rows), default=2) + 16
    chart = [
        f'<svg role="img" aria-labelledby="{ids}coverage-chart" viewBox="0 0 640 {height}" '
        f'width="100%" style="max-width:640px" preserveAspectRatio="xMinYMin meet">',
        f'<title id="{ids}coverage-chart">Coverage per locale</title>',
    ]
    bar_width = 640 - label_width - 70
    for index, row in enumerate(rows):
        y = 4 + 22 * index
        filled = round(bar_width * row.coverage, 1)
        kind = "bar" if row.coverage >= 0.9 else "bar low"
        chart += [
            f'<text x="0" y="{y + 14}">{esc(row.locale)}</text>',
            f'<rect class="track" x="{label_width}" y="{y}" width="{bar_width}" height="16"/>',
            f'<rect class="{kind}" x="{label_width}" y="{y}" width="{filled}" height="16"/>',
            f'<text x="{label_width + bar_width + 6}" y="{y + 14}">'
            f"{esc(percent(row.coverage))}</text>",
        ]
    chart.append("</svg>")
    table = [
        '<div class="scroll"><table><caption class="meta">Of the source\'s text keys, how many '
        "each locale translates</caption><thead><tr><th>Locale</th><th>Name</th>"
        '<th class="num">Coverage</th><th class="num">Translated</th>'
        '<th class="num">Untranslated</th><th class="num">Stale</th>'
        '<th class="num">Needs review</th><th class="num">Quality errors</th>'
        '<th class="num">Quality warnings</th></tr></thead><tbody>'
    ]
    for row in rows:
        role = " (source)" if row.source else ""
        table.append(
            f"<tr><td><code>{esc(row.locale)}</code>{role}</td><td>{esc(row.name)}</td>"
            f'<td class="num">{esc(percent(row.coverage))}</td>'
            f'<td class="num">{row.translated} / {row.leaves}</td>'
            f'<td class="num">{row.untranslated}</td><td class="num">{row.stale}</td>'
            f'<td class="num">{row.needs_review}</td><td class="num">{row.quality_errors}</td>'
            f'<td class="num">{row.quality_warnings}</td></tr>'
        )
    table.append("</tbody></table></div>")
    return (
        _heading(ids + "coverage", "Coverage", level)
        + "".join(chart)
        + "".join(table)
        + "</section>"
    )


def _keys(data: ReportData, link_base: str | None, ids: str, level: int) -> str:
    esc = html.escape
    if not data.keys:
        return (
            _heading(ids + "keys", "Keys to act on", level)
            + "<p>None: every key the code uses is in the source locale, and nothing else "
            "needs someone.</p></section>"
        )
    present = [status for status in STATUSES if any(row.status == status for row in data.keys)]
    options = "".join(
        f'<option value="{status}">{_STATUS_NAMES[status]}</option>' for status in present
    )
    head = "".join(
        f'<th scope="col"{extra}><button type="button">{name}</button></th>'
        for name, extra in (
            ("Status", ""),
            ("Key", ""),
            ("Locale", ""),
            ("Place", ""),
            ("Detail", ' class="detail"'),
        )
    )
    rows = []
    for index, row in enumerate(data.keys):
        order = STATUSES.index(row.status)
        hidden = " hidden" if index >= FIRST_ROWS else ""
        rows.append(
            f'<tr data-status="{row.status}"{hidden}>'
            f'<td class="status" data-sort="{order}">{_STATUS_NAMES[row.status]}</td>'
            f"<td><code>{esc(row.key)}</code></td><td>{esc(row.locale or '')}</td>"
            f'<td data-sort="{esc(row.file or "")}:{row.line or 0:08d}">'
            f"{_link(row.file, row.line, link_base)}</td>"
            f'<td class="detail">{esc(row.detail)}</td></tr>'
        )
    return (
        _heading(ids + "keys", "Keys to act on", level, "keys")
        + f'<div class="filters"><label for="{ids}filter-text">Filter'
        f'<input id="{ids}filter-text" type="search" placeholder="key, file or text"></label>'
        f'<label for="{ids}filter-status">Status<select id="{ids}filter-status">'
        f'<option value="">all</option>{options}</select></label>'
        f'<span id="{ids}shown" class="meta shown" aria-live="polite"></span>'
        '<button type="button" class="more" hidden></button></div>'
        f'<div class="scroll"><table id="{ids}key-table"><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


def _dynamic(data: ReportData, link_base: str | None, ids: str, level: int) -> str:
    esc = html.escape
    if not data.dynamic:
        return ""
    rows = "".join(
        f"<tr><td>{_link(site.file, site.line, link_base)}</td><td>{esc(site.kind)}</td>"
        f"<td><code>{esc(site.preview)}</code></td>"
        f"<td><code>{esc(site.prefix if site.prefix is not None else '')}</code></td></tr>"
        for site in data.dynamic
    )
    return (
        _heading(ids + "dynamic", "Dynamic key sites", level)
        + '<p class="meta">Keys built at run time: keys starting with the prefix are kept.</p>'
        '<div class="scroll"><table><thead><tr><th>Place</th><th>Kind</th><th>Call</th>'
        f"<th>Prefix</th></tr></thead><tbody>{rows}</tbody></table></div></section>"
    )


def _notes(data: ReportData, ids: str, level: int) -> str:
    if not data.notes:
        return ""
    items = "".join(
        f"<li><b>{html.escape(note.severity)}</b> ({html.escape(note.op)}): "
        f"{html.escape(note.message)}</li>"
        for note in data.notes
    )
    return _heading(ids + "notes", "Notes", level) + f"<ul>{items}</ul></section>"


def _changes(data: ReportData, ids: str, level: int) -> str:
    esc = html.escape
    changes = data.changes
    assert changes is not None
    items = []
    if changes.new_project:
        items.append("<li>New project: the baseline has no report of it, every key is new.</li>")
    for status, keys in changes.newly.items():
        shown = ", ".join(f"<code>{esc(key)}</code>" for key in keys[:20])
        more = f" and {len(keys) - 20} more" if len(keys) > 20 else ""
        items.append(f"<li>Newly {_STATUS_NAMES[status]}: {len(keys)} — {shown}{more}</li>")
    for status, keys in changes.resolved.items():
        items.append(f"<li>No longer {_STATUS_NAMES[status]}: {len(keys)}</li>")
    for change in changes.coverage:
        items.append(
            f"<li>Coverage of <code>{esc(change.locale)}</code> {esc(coverage_move(change))}</li>"
        )
    listed = "".join(items) or "<li>Nothing changed.</li>"
    return (
        _heading(ids + "changes", f"Since {esc(changes.baseline_generated_at)}", level)
        + f"<ul>{listed}</ul></section>"
    )
