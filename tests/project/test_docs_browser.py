#!/usr/bin/env python3
"""The built course site as a student's browser shows it: serves HTML_DIR on
127.0.0.1 and loads the main page, the conventions, the datasets' notes,
every lab handout, every results page and the pages that group them
(docs/results.dox) in headless Chromium, at 1400 and 1280 px, and fails on

- a figure, plot or table wider than the content column, or cut inside it
  (an SVG larger than its <object>, a table that scrolls),
- raw Markdown in the rendered text (`**`, a backtick or `](`) or an HTML
  comment shown as text, outside code,
- an inline command whose `--` became a dash (`–submission`),
- an href, src or data that is not http(s), the page itself or a file of the
  site (check_links.py reads the HTML; this reads what the browser resolved).

One screenshot per handout (1280 px, at its first figure) is kept in OUT_DIR.
The checks run in one browser: a harness page loads each page into an iframe
of the width and measures it there (same origin), then writes its findings
into the DOM that --dump-dom prints. Exits 77 (skipped) without Chromium or
without the site (no doxygen).

    python3 -m tests.project.test_docs_browser HTML_DIR OUT_DIR
"""
import functools
import html
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from urllib.parse import urlsplit, unquote

SKIP = 77
WIDTHS = (1400, 1280)
HARNESS = "/__browser_check__.html"
SHOT = "shot"  # the query that scrolls a page to its first figure for the screenshot

# Measures one loaded page (doc, win): run in the harness for each iframe.
INSPECT_JS = r"""
function inspect(doc, win) {
  const problems = [], targets = [];
  const contents = doc.querySelector('div.contents');
  if (!contents) return {problems: ['no div.contents'], targets};
  const style = win.getComputedStyle(contents), box = contents.getBoundingClientRect();
  const left = box.left + parseFloat(style.paddingLeft), right = box.right - parseFloat(style.paddingRight);
  const name = el => el.tagName === 'TABLE'
      ? 'the table "' + el.innerText.split('\n')[0].slice(0, 60) + '"'
      : el.tagName.toLowerCase() + ' ' + (el.getAttribute('data') || el.getAttribute('src') || '');
  for (const el of contents.querySelectorAll('img, object, svg, table')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.right > right + 1 || r.left < left - 1)
      problems.push(`${name(el)} is ${Math.round(r.width)} px wide, the column ${Math.round(right - left)} px`);
    else if (el.scrollWidth > el.clientWidth + 1)
      problems.push(`${name(el)} is cut: ${el.scrollWidth} px of it in ${el.clientWidth} px`);
    const svg = el.tagName === 'OBJECT' && el.contentDocument && el.contentDocument.documentElement;
    if (svg) {
      const s = svg.getBoundingClientRect();
      if (s.width > el.clientWidth + 1 || s.height > el.clientHeight + 1)
        problems.push(`${name(el)} is cut: its SVG is ${Math.round(s.width)}x${Math.round(s.height)} px ` +
                      `in ${el.clientWidth}x${el.clientHeight} px`);
    }
  }
  const walker = doc.createTreeWalker(contents, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue, code = node.parentElement.closest('code, pre, div.fragment');
    const found = (re, what) => {
      const m = re.exec(text);
      if (m) problems.push(`${what}: "${text.slice(Math.max(0, m.index - 30), m.index + 30).replace(/\s+/g, ' ')}"`);
    };
    if (!code) {
      found(/\*\*|`|\]\(/, 'raw Markdown');
      found(/<!--|-->/, 'an HTML comment as text');
    }
    found(/(^|[\s(\u2018\u201c'"`])[\u2013\u2014][A-Za-z]/, 'a command\'s -- became a dash');
  }
  for (const el of contents.querySelectorAll('a[href], img[src], object[data]'))
    for (const key of ['href', 'src', 'data'])
      if (el.hasAttribute(key)) targets.push([el.getAttribute(key), new URL(el.getAttribute(key), doc.baseURI).href]);
  return {problems, targets};
}
"""

HARNESS_JS = r"""
const checks = %s, results = [];
function load(page, width) {
  return new Promise(resolve => {
    const frame = document.createElement('iframe');
    frame.style.width = width + 'px';
    frame.style.height = '900px';
    frame.onload = () => setTimeout(() => {
      let found;
      try { found = inspect(frame.contentDocument, frame.contentWindow); }
      catch (e) { found = {problems: ['the check failed: ' + e], targets: []}; }
      frame.remove();
      resolve(Object.assign({page, width}, found));
    }, 500);  // Doxygen's scripts lay out the page after its load event
    frame.src = page;
    document.body.appendChild(frame);
  });
}
(async () => {
  for (const [page, width] of checks) results.push(await load(page, width));
  document.getElementById('results').textContent = JSON.stringify(results);
})();
"""

SHOT_JS = """<script>window.addEventListener('load', () => {
  const figure = document.querySelector('div.contents div.image');
  if (figure) figure.scrollIntoView();
});</script>"""


class Site(http.server.SimpleHTTPRequestHandler):
    """The built site as it is, the harness page, and a page with ?shot scrolled to its first figure."""

    def __init__(self, *args, harness: str, **kwargs):
        self.harness = harness
        super().__init__(*args, **kwargs)

    def do_GET(self):
        parts = urlsplit(self.path)
        if parts.path == HARNESS:
            return self.send(self.harness)
        if parts.query == SHOT:
            page = Path(self.directory) / unquote(parts.path).lstrip("/")
            return self.send(page.read_text().replace("</body>", SHOT_JS + "</body>"))
        return super().do_GET()

    def send(self, text: str):
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass  # the test's log is its findings


def chromium(profile: Path, *args: str, timeout: int) -> str:
    """Runs headless Chromium with args; its stdout. --no-sandbox: CI runs as root, on the site alone."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    return subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           f"--user-data-dir={profile}", *args], capture_output=True, text=True, check=True,
                          timeout=timeout).stdout


def pages(site: Path) -> list[str]:
    """The pages a student reads: the main page, the conventions, the datasets'
    notes, the handouts, the results pages and the pages that group them."""
    names = ["index.html", "conventions.html", "md_datasets_README.html",
             *sorted(p.name for p in site.glob("md_labs_*_README.html")),
             *sorted(p.name for p in site.glob("results*.html")),
             *sorted(p.name for p in site.glob("md_docs_results_*.html"))]
    return names


def target_problem(site: Path, origin: str, page: str, raw: str, resolved: str) -> str | None:
    """Why a link or embed of page is dead (None: it is fine)."""
    parts = urlsplit(resolved)
    if parts.scheme in ("http", "https") and f"{parts.scheme}://{parts.netloc}" != origin:
        return None  # outside the site
    if f"{parts.scheme}://{parts.netloc}" != origin:
        return f"{page}: {raw!r} is not http(s), the page or a file of the site"
    if not (site / unquote(parts.path).lstrip("/")).is_file():
        return f"{page}: {raw!r} names no file of the site"
    return None


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    site, out = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("skipped: no chromium (apt-get install chromium); the site was not looked at in a browser")
        return SKIP
    if not (site / "index.html").is_file():
        print(f"skipped: {site} has no index.html (the docs need doxygen: cmake --build BUILD --target docs)")
        return SKIP
    names = pages(site)
    checks = [[name, width] for name in names for width in WIDTHS]
    harness = ("<!DOCTYPE html><html><body><pre id='results'></pre><script>" + INSPECT_JS
               + HARNESS_JS % json.dumps(checks) + "</script></body></html>")
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Site, directory=str(site), harness=harness))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        dom = chromium(Path(profile), "--virtual-time-budget=600000", "--window-size=1500,1000", "--dump-dom",
                       origin + HARNESS, timeout=600)
        found = re.search(r"<pre id=\"results\">(.*?)</pre>", dom, re.S)
        results = json.loads(html.unescape(found.group(1))) if found and found.group(1) else []
        for name in names:
            if name.startswith("md_labs_"):
                chromium(Path(profile), "--virtual-time-budget=10000", f"--window-size={WIDTHS[-1]},1400",
                         f"--screenshot={out / name.replace('.html', '.png')}", f"{origin}/{name}?{SHOT}",
                         timeout=120)
    server.shutdown()
    if len(results) != len(checks):
        print(f"the harness reported {len(results)} of {len(checks)} page loads", file=sys.stderr)
        return 1
    problems = []
    for result in results:
        problems += [f"{result['page']} at {result['width']} px: {p}" for p in result["problems"]]
        problems += [p for raw, resolved in result["targets"]
                     if (p := target_problem(site, origin, result["page"], raw, resolved))]
    problems = list(dict.fromkeys(problems))
    for problem in problems:
        print("docs_browser:", problem, file=sys.stderr)
    print(f"docs_browser: {len(names)} pages at {' and '.join(map(str, WIDTHS))} px, {len(problems)} problems; "
          f"screenshots of the handouts in {out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
