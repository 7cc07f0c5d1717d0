// The orders chart: one bar per day in inline SVG, no library. Days read left to right (oldest
// first) in every language, as dates on a time axis do.
const SVG = "http://www.w3.org/2000/svg";

function node(name, attributes = {}, parent) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  parent?.appendChild(element);
  return element;
}

/** Draws `days` ({label, value, title}) as bars into `container`, replacing what was there. */
export function drawBars(container, days, { height = 220, barLabel = "" } = {}) {
  container.replaceChildren();
  const width = Math.max(320, days.length * 22 + 50);
  const top = 16, bottom = 36, left = 36;
  const plotHeight = height - top - bottom;
  const max = Math.max(1, ...days.map((d) => d.value));
  // A round step for the axis: 1, 2 or 5 times a power of ten.
  const rawStep = max / 4;
  const power = 10 ** Math.floor(Math.log10(rawStep || 1));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rawStep));
  const ceiling = Math.ceil(max / step) * step;
  const svg = node("svg", {
    viewBox: `0 0 ${width} ${height}`, width: "100%", role: "img", "aria-label": barLabel, class: "chart", direction: "ltr",
  }, container);
  for (let v = 0; v <= ceiling; v += step) {
    const y = top + plotHeight - (v / ceiling) * plotHeight;
    node("line", { x1: left, x2: width - 4, y1: y, y2: y, class: "grid" }, svg);
    node("text", { x: left - 6, y: y + 4, "text-anchor": "end", class: "axis" }, svg).textContent = String(v);
  }
  const slot = (width - left - 4) / Math.max(1, days.length);
  days.forEach((day, index) => {
    const x = left + index * slot;
    const barHeight = (day.value / ceiling) * plotHeight;
    const bar = node("rect", {
      x: x + slot * 0.15, width: slot * 0.7, y: top + plotHeight - barHeight, height: barHeight,
      class: day.value > 0 ? "bar" : "bar empty", "data-date": day.label, "data-value": day.value,
    }, svg);
    node("title", {}, bar).textContent = day.title;
    if (index % 5 === days.length % 5 || index === days.length - 1) {
      node("text", { x: x + slot / 2, y: height - bottom + 16, "text-anchor": "middle", class: "axis" }, svg)
        .textContent = day.label.slice(5);
    }
  });
  return svg;
}
