// SPDX-License-Identifier: MIT
// Where scenes and traces come from: the shipped scenes (copied next to the page by build.mjs, listed in
// scenes/index.json), a file chosen with the file picker, or one dropped on the page.

// The shipped scenes: [{ path: 'course/S01-stairs-up.json', group: 'course', name: 'S01-stairs-up' }].
export async function fetchIndex() {
  const response = await fetch('scenes/index.json');
  if (!response.ok) throw new Error(`scenes/index.json: ${response.status} ${response.statusText}`);
  return response.json();
}

// The real levels the server can convert (serve.mjs: `tread walk --list`): { installed, maps, message }. A server
// without them (a plain static server) gives installed false and says so.
export async function fetchLevels() {
  try {
    const response = await fetch('levels/index.json');
    if (response.ok) return await response.json();
    return { installed: false, maps: [], message: `this server does not convert levels (levels/index.json: ${response.status}); make serve does` };
  } catch (e) {
    return { installed: false, maps: [], message: `levels/index.json: ${e.message ?? e}` };
  }
}

// One level as a scene file's text, converted by the server (`tread walk MAP --scene`) at spawn point `spawn`.
export async function fetchLevel(map, spawn = 0, shape = 'capsule') {
  const response = await fetch(`levels/${encodeURIComponent(map)}.json?spawn=${spawn}&shape=${shape}`);
  const text = await response.text();
  if (!response.ok) {
    let message = text;
    try {
      message = JSON.parse(text).error;
    } catch {}
    throw new Error(`level ${map}: ${message}`);
  }
  return text;
}

export async function fetchScene(path) {
  const response = await fetch(`scenes/${path}`);
  if (!response.ok) throw new Error(`scenes/${path}: ${response.status} ${response.statusText}`);
  return response.text();
}

// Call onFile({ name, text }) for every file dropped on `target` (scene .json or trace .csv); `hint` is shown while
// a file is dragged over.
export function acceptDrops(target, hint, onFile) {
  let depth = 0;
  target.addEventListener('dragenter', (e) => {
    e.preventDefault();
    depth++;
    hint.hidden = false;
  });
  target.addEventListener('dragleave', () => {
    if (--depth <= 0) (depth = 0), (hint.hidden = true);
  });
  target.addEventListener('dragover', (e) => e.preventDefault());
  target.addEventListener('drop', async (e) => {
    e.preventDefault();
    depth = 0;
    hint.hidden = true;
    for (const file of e.dataTransfer?.files ?? []) onFile({ name: file.name, text: await file.text() });
  });
}

export async function readPicked(input, onFile) {
  for (const file of input.files ?? []) onFile({ name: file.name, text: await file.text() });
  input.value = '';
}
