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
    this.overview = $('overview');
    this.levelList = $('level-list');
    this.levelSpawn = $('level-spawn');
    this.levelShape = $('level-shape');
    this.levelNote = $('level-note');
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
    this.overview.addEventListener('click', () => app.toggleOverview());
    const openLevel = () => {
      if (this.levelList.value) app.openLevel(this.levelList.value, Math.max(0, Math.floor(Number(this.levelSpawn.value) || 0)), this.levelShape.value);
    };
    this.levelList.addEventListener('change', openLevel);
    this.levelSpawn.addEventListener('change', openLevel);
    this.levelShape.addEventListener('change', openLevel);
    this.debug.addEventListener('change', () => app.setDebug(this.debug.checked));
    this.autopilot.addEventListener('change', () => app.setAutopilot(this.autopilot.checked));
    this.play.addEventListener('click', () => app.togglePlay());
    this.scrub.addEventListener('input', () => app.seek(Number(this.scrub.value)));
    this.speed.addEventListener('change', () => app.setReplaySpeed(Number(this.speed.value)));
    $('live').addEventListener('click', () => app.leaveReplay());
    // Controls keep no keyboard focus, so that keys always reach the character.
    for (const el of document.querySelectorAll('#panel button, #panel input[type=checkbox], #timeline button'))
      el.addEventListener('click', () => el.blur());
    for (const el of [this.sceneList, this.strategy, this.character, this.speed, this.levelList, this.levelShape, this.levelSpawn])
      el.addEventListener('change', () => el.blur());
    window.addEventListener('keydown', (e) => {
      if (e.target instanceof HTMLSelectElement || (e.target instanceof HTMLInputElement && e.target.type === 'number') || e.repeat) return;
      const actions = {
        KeyR: () => app.restart(),
        KeyV: () => app.toggleCamera(),
        KeyO: () => app.toggleOverview(),
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

  // The real levels the server converts (App.levels: { installed, maps, message }); without them the picker says why.
  setLevels(levels) {
    const first = new Option(levels.installed ? `${levels.maps.length} maps…` : 'none installed', '');
    this.levelList.replaceChildren(first, ...levels.maps.map((m) => new Option(m, m)));
    this.levelList.disabled = this.levelSpawn.disabled = this.levelShape.disabled = !levels.installed;
    this.levelNote.textContent = levels.installed ? '' : levels.message;
    this.levelNote.hidden = levels.installed;
  }

  // After a scene is loaded: its characters, the strategy in force, the shipped entry (or none for a file), the
  // level it is ({ map, spawn, shape }, or null).
  setScene(scene, shippedPath, strategy, level = null) {
    if (shippedPath) this.sceneList.value = shippedPath;
    else this.sceneList.selectedIndex = -1;
    this.levelList.value = level?.map ?? '';
    if (level) {
      this.levelSpawn.value = String(level.spawn);
      this.levelShape.value = level.shape;
    }
    this.character.replaceChildren(...scene.characters.map((c, i) => new Option(`${i + 1}. ${c.name}`, String(i))));
    this.character.disabled = scene.characters.length < 2;
    this.strategy.value = strategy;
  }

  sync(app) {
    this.character.value = String(app.controlled);
    this.debug.checked = app.debug;
    this.autopilot.checked = app.autopilot;
    this.cameraMode.textContent = app.rig.mode === 'first' ? 'Third person' : 'First person';
    this.overview.textContent = app.rig.overview ? 'Follow' : 'Overview';
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
