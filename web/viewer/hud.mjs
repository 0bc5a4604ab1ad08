// SPDX-License-Identifier: MIT
// The debug overlay's text: the controlled character's ground state and normal (and the slope it makes with up),
// position and speed, the last move's step_up / snap_down and contacts, the max-step height, the camera's
// smoothing offset, the last step events, what a simulation step and a drawn frame take and on which of tread's builds
// (threads N, or single), and the camera (the boom shortened by the world in the way, or the overview's frame).
import { GROUND_COLORS } from './overlay.mjs';

const n3 = (v, d = 3) => `(${v.x.toFixed(d)}, ${v.y.toFixed(d)}, ${v.z.toFixed(d)})`;
const hex = (c) => `#${c.toString(16).padStart(6, '0')}`;
const escape = (s) => String(s).replace(/[&<>"]/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch]);

export class Hud {
  constructor(element) {
    this.element = element;
    this.visible = true;
  }

  // info: { scene, mode, frame, time, strategy, controlled, count, character (snapshot), detail (or null), ground
  // (state name, when detail is null), stepped (replay), events, timing, camera, build: { threads, crossOriginIsolated } }
  update(info) {
    this.element.hidden = !this.visible;
    if (!this.visible) return;
    const c = info.character;
    const lines = [`<b>${escape(info.scene)}</b> · ${info.mode} · frame ${info.frame} · ${info.time.toFixed(2)} s`];
    if (c) {
      const up = c.up ?? { x: 0, y: 1, z: 0 };
      const v = c.velocity ?? { x: 0, y: 0, z: 0 };
      const along = v.x * up.x + v.y * up.y + v.z * up.z;
      const across = Math.hypot(v.x - along * up.x, v.y - along * up.y, v.z - along * up.z);
      const state = info.detail?.groundState ?? info.ground ?? '?';
      lines.push(`character ${info.controlled + 1} of ${info.count}: <b>${escape(c.name)}</b> · strategy <b>${escape(info.strategy)}</b>`);
      lines.push(`feet ${n3(c.position)} · speed ${across.toFixed(2)} m/s across, ${along.toFixed(2)} along up`);
      lines.push(`ground <b style="color:${hex(GROUND_COLORS[state] ?? 0xffffff)}">${state}</b>` + (info.detail && state !== 'in_air'
        ? ` · normal ${n3(info.detail.ground.normal)} · slope ${slope(info.detail.ground.normal, up).toFixed(1)}°` : ''));
      if (info.detail) {
        const r = info.detail.result;
        lines.push(`move: step_up ${r.step_up.toFixed(3)} m · snap_down ${r.snap_down.toFixed(3)} m · contacts ${r.contact_count}` +
          (r.contacts_overflow ? '+' : '') + (r.held_by_riser ? ' · held by riser' : '') + (r.crushed ? ' · <b>crushed</b>' : ''));
      } else if (info.stepped !== undefined) lines.push(`move: stepped ${info.stepped.toFixed(3)} m (from the trace)`);
      lines.push(`max step height ${(c.settings?.max_step_height ?? 0).toFixed(2)} m · camera offset ${(c.cameraOffset ?? 0).toFixed(3)} m` +
        (c.height !== undefined ? ` · height ${c.height.toFixed(2)} m` : ''));
      const events = info.events.slice(-5).reverse();
      if (events.length) lines.push('step events: ' + events.map((e) => `${e.stepped > 0 ? '▲' : '▼'} ${Math.abs(e.stepped).toFixed(3)} m @${e.frame}`).join(', '));
    } else lines.push('no characters in this scene');
    const cam = info.camera;
    if (cam?.mode === 'overview' && cam.framed) {
      const b = cam.bounds, size = b ? `${(b.max.x - b.min.x).toFixed(0)} x ${(b.max.y - b.min.y).toFixed(0)} x ${(b.max.z - b.min.z).toFixed(0)} m` : '';
      lines.push(`camera <b>overview</b> (O) · ${cam.framed.distance.toFixed(1)} m from the middle of the scene's bounds, ${size}`);
    } else if (cam?.mode === 'third' && cam.boom !== null) {
      lines.push(`camera third person · boom ${cam.boom.toFixed(2)} of ${cam.rest.toFixed(2)} m` + (cam.blocked ? ' · <b>the world is in the way</b>' :
        cam.boom < cam.rest ? ' · moving back out' : ''));
    }
    const t = info.timing, b = info.build;
    const build = !b ? '' : b.threads > 1 ? ` · build threads ${b.threads}` : ` · build single${b.crossOriginIsolated ? '' : ' (page not cross-origin isolated)'}`;
    if (t && t.stepMs !== null) {
      const load = t.stepMs / t.dtMs;
      lines.push(`step ${t.stepMs.toFixed(2)} ms for ${info.count} character${info.count === 1 ? '' : 's'} (${(100 * load).toFixed(0)} % of its ` +
        `${t.dtMs.toFixed(1)} ms)` + (t.frameMs !== null ? ` · frame ${t.frameMs.toFixed(1)} ms` : '') + build +
        (t.behind ? ' · <b>behind: steps dropped</b>' : ''));
    } else if (build) lines.push(build.slice(3));
    this.element.innerHTML = lines.map((l) => `<div>${l}</div>`).join('');
  }
}

function slope(normal, up) {
  const d = normal.x * up.x + normal.y * up.y + normal.z * up.z;
  return (Math.acos(Math.max(-1, Math.min(1, d))) * 180) / Math.PI;
}
