// SPDX-License-Identifier: MIT
// The side panel and the replay timeline: the page's controls (index.html) wired to the App's actions, and kept in
// step with its state. Keyboard shortcuts live here too (movement keys are input.mjs's).
const $ = (id) => document.getElementById(id);

export class Panel {
  constructor(app) {
    this.app = app;
    this.sceneList = $('scene-list');
    this.strategy = $('strategy');
    this.character = $('character');
    this.debug = $('debug');
    this.autopilot = $('autopilot');
    this.cameraMode = $('camera-mode');
    this.message = $('message');
    this.timeline = $('timeline');
    this.scrub = $('scrub');
    this.play = $('play');
    this.frameLabel = $('frame-label');
    this.speed = $('speed');
    this.sceneList.addEventListener('change', () => app.openShipped(this.sceneList.value));
    $('file').addEventListener('change', (e) => app.openPicked(e.target));
    this.strategy.addEventListener('change', () => app.setStrategy(this.strategy.value));
    this.character.addEventListener('change', () => app.control(Number(this.character.value)));
    $('restart').addEventListener('click', () => app.restart());
    this.cameraMode.addEventListener('click', () => app.toggleCamera());
    this.debug.addEventListener('change', () => app.setDebug(this.debug.checked));
    this.autopilot.addEventListener('change', () => app.setAutopilot(this.autopilot.checked));
    this.play.addEventListener('click', () => app.togglePlay());
    this.scrub.addEventListener('input', () => app.seek(Number(this.scrub.value)));
    this.speed.addEventListener('change', () => app.setReplaySpeed(Number(this.speed.value)));
    $('live').addEventListener('click', () => app.leaveReplay());
    // Controls keep no keyboard focus, so that keys always reach the character.
    for (const el of document.querySelectorAll('#panel button, #panel input[type=checkbox], #timeline button'))
      el.addEventListener('click', () => el.blur());
    for (const el of [this.sceneList, this.strategy, this.character, this.speed]) el.addEventListener('change', () => el.blur());
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLSelectElement || e.repeat) return;
      const actions = {
        KeyR: () => app.restart(),
        KeyV: () => app.toggleCamera(),
        KeyB: () => app.setDebug(!app.debug),
        KeyP: () => app.setAutopilot(!app.autopilot),
        Tab: () => app.control((app.controlled + 1) % Math.max(1, app.characterCount)),
      };
      if (actions[e.code]) {
        e.preventDefault();
        actions[e.code]();
      }
    });
  }

  // The shipped scenes, grouped by folder.
  setIndex(index, selected) {
    this.sceneList.replaceChildren();
    const groups = new Map();
    for (const s of index) {
      if (!groups.has(s.group)) {
        const g = document.createElement('optgroup');
        g.label = s.group;
        groups.set(s.group, g);
        this.sceneList.append(g);
      }
      groups.get(s.group).append(new Option(s.name, s.path, false, s.path === selected));
    }
  }

  // After a scene is loaded: its characters, the strategy in force, the shipped entry (or none for a file).
  setScene(scene, shippedPath, strategy) {
    if (shippedPath) this.sceneList.value = shippedPath;
    else this.sceneList.selectedIndex = -1;
    this.character.replaceChildren(...scene.characters.map((c, i) => new Option(`${i + 1}. ${c.name}`, String(i))));
    this.character.disabled = scene.characters.length < 2;
    this.strategy.value = strategy;
  }

  sync(app) {
    this.character.value = String(app.controlled);
    this.debug.checked = app.debug;
    this.autopilot.checked = app.autopilot;
    this.cameraMode.textContent = app.rig.mode === 'first' ? 'Third person' : 'First person';
  }

  say(text, kind = 'error') {
    this.message.textContent = text;
    this.message.className = kind;
  }

  showTimeline(replay) {
    this.timeline.hidden = !replay;
    if (!replay) return;
    this.scrub.max = String(replay.length - 1);
    this.updateTimeline(replay);
  }

  updateTimeline(replay) {
    this.scrub.value = String(replay.index);
    const f = replay.trace.frames[replay.index];
    this.frameLabel.textContent = `frame ${replay.index + 1}/${replay.length} · ${f.t.toFixed(3)} s`;
    this.play.textContent = replay.playing ? 'Pause' : 'Play';
  }
}
