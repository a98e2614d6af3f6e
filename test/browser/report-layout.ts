/**
 * Layout measurements taken inside the page (page.evaluate) for the HTML report's layout test:
 * what sticks out of the viewport, what is cut or overflows its box, which words break across
 * lines although they fit on one, and where the case titles and the filter panel sit. Plain
 * functions of the DOM, run in Chromium; they return what they found so a failure names it.
 */

export interface LayoutFindings {
  viewport: number;
  scrollWidth: number;
  /** Elements whose box or text leaves the viewport (left < 0 or right > innerWidth). */
  outside: string[];
  /** Elements whose content is wider than their box (scrollWidth > clientWidth): cut, scrolled or spilling. */
  overflowing: string[];
  /** Inputs whose placeholder is wider than the room for it. */
  placeholderCut: string[];
  /** IDs, durations and badges laid out on more than one line. */
  wrapped: string[];
  /** Words (letters and digits) in code boxes split across lines although they fit on one. */
  brokenWords: string[];
  /** Smallest (title width / case summary width) over the visible cases. */
  minTitleShare: number;
  filterEdges: { left: number; right: number };
  caseEdges: { left: number; right: number };
}

/** Runs in the page: keep it free of imports and closures over Node values. */
export function measureLayout(): LayoutFindings {
  const name = (el: Element): string => {
    const id = el.id ? `#${el.id}` : "";
    const cls = typeof el.className === "string" && el.className ? `.${el.className.trim().split(/\s+/).join(".")}` : "";
    const text = (el.textContent ?? "").trim().slice(0, 40);
    const article = el.closest("article.case");
    return `${el.tagName.toLowerCase()}${id}${cls}${article && article !== el ? ` in #${article.id}` : ""} "${text}"`;
  };
  const visible = (el: Element): boolean => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const lines = (node: Node, start?: number, end?: number): number => {
    const range = document.createRange();
    if (start === undefined) range.selectNodeContents(node);
    else {
      range.setStart(node, start);
      range.setEnd(node, end!);
    }
    return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
  };

  const all = [...document.body.querySelectorAll("*")].filter(visible);
  // Boxes, and the text in them: a word too long for its box spills out of it without widening it.
  const outside = all.filter((el) => {
    const box = el.getBoundingClientRect();
    if (box.left < -0.5 || box.right > innerWidth + 0.5) return true;
    return [...el.childNodes].some((node) => {
      if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) return false;
      const range = document.createRange();
      range.selectNodeContents(node);
      const text = range.getBoundingClientRect();
      return text.width > 0 && (text.left < -0.5 || text.right > innerWidth + 0.5);
    });
  });
  // Every box's content fits its box: for `overflow: hidden` / ellipsis that means nothing is cut;
  // for `auto` / `scroll` nothing needs a sideways scroll; for `visible` nothing spills out.
  const overflowing = all.filter((el) => {
    const display = getComputedStyle(el).display;
    if (display === "inline" || display === "contents" || el.clientWidth === 0) return false;
    return el.scrollWidth > el.clientWidth + 1;
  });

  const canvas = document.createElement("canvas").getContext("2d")!;
  const placeholderCut = [...document.querySelectorAll<HTMLInputElement>("input[placeholder]")].filter((input) => {
    const style = getComputedStyle(input, "::placeholder");
    canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const own = getComputedStyle(input);
    const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
    // The search field's clear button takes room only while there is text; the placeholder shows when there is none.
    return canvas.measureText(input.placeholder).width > room;
  });

  const wrapped = [...document.querySelectorAll("article.case summary > *, #shown")].filter(visible).filter((el) => !el.classList.contains("title") && !el.classList.contains("reason") && lines(el) > 1);

  const brokenWords: string[] = [];
  for (const box of [...document.querySelectorAll("pre, code")].filter(visible)) {
    // The room for a line: the content box (padding excluded); an inline code's lines span its whole box.
    const style = getComputedStyle(box);
    const width = box.clientWidth ? box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) : box.getBoundingClientRect().width;
    const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      // Lines may break after a space, a hyphen, a "?" or a "/" as line breaking allows; what
      // must not happen is letters split from letters (word-break: break-all) in a token — a run
      // without spaces — that would fit on a line of its own. A longer token (a long URL) has to
      // be split somewhere, and there the browser's emergency break is the right one.
      const tokenWidth = (start: number, end: number): number => {
        const range = document.createRange();
        range.setStart(node!, start);
        range.setEnd(node!, end);
        return [...range.getClientRects()].reduce((sum, r) => sum + r.width, 0);
      };
      for (const token of text.matchAll(/\S+/g)) {
        const start = token.index!;
        if (lines(node, start, start + token[0].length) <= 1 || tokenWidth(start, start + token[0].length) >= width) continue;
        for (const word of token[0].matchAll(/[\p{L}\p{N}]+/gu)) {
          if (lines(node, start + word.index!, start + word.index! + word[0].length) > 1) brokenWords.push(`${word[0].slice(0, 40)} in ${name(box)}`);
        }
      }
    }
  }

  let minTitleShare = 1;
  for (const article of [...document.querySelectorAll("article.case")].filter(visible)) {
    const title = article.querySelector("summary .title")!.getBoundingClientRect();
    const summary = article.querySelector("summary")!;
    const s = getComputedStyle(summary);
    const room = summary.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    minTitleShare = Math.min(minTitleShare, title.width / room);
  }

  const edges = (el: Element) => {
    const box = el.getBoundingClientRect();
    return { left: box.left, right: box.right };
  };
  return {
    viewport: innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
    outside: outside.map(name),
    overflowing: overflowing.map(name),
    placeholderCut: placeholderCut.map(name),
    wrapped: wrapped.map(name),
    brokenWords,
    minTitleShare,
    filterEdges: edges(document.querySelector("nav.filters")!),
    caseEdges: edges(document.querySelector("article.case")!),
  };
}
