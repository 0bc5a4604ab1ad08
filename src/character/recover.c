// SPDX-License-Identifier: MIT
// Penetration recovery: a character that starts inside geometry, or is pushed into it, moves out along the
// least-penetration directions at the recovery speed. Deeply buried (contacts that cancel out, or more than
// the buffer holds) it goes to the nearest free spot a sweep reaches, or rises along up (Staxel's answer to
// starting inside the ground). Buried in a moving body, it is crushed: out as a crush goes (push.c), or nowhere.
#include "character_internal.h"

#include <float.h>
#include <math.h>
#include <stdint.h>

#define TR_RECOVER_CONTACTS 16
#define TR_RECOVER_ITERATIONS 4
// Overlaps up to this deep (metres, the penetration the API allows) are only ever pushed, never unburied.
#define TR_RECOVER_FREE_SLACK 1.0e-3f
// The full push leads out when it leaves at most this share of the depth (or TR_RECOVER_FREE_SLACK): relaxing
// against linearised contacts leaves a little; more is a push into something else.
#define TR_RECOVER_RESIDUE 0.05f
// The unbury search looks at least this far (metres): a small character deep in a crate finds the crate's top.
#define TR_UNBURY_MIN_REACH 2.0f
// Longest a push out may take at the recovery speed (seconds); deeper is buried (a box 0.94 m into terrain at
// 0.42 m/s took 2.2 s of visible sliding).
#define TR_RECOVER_WALK_TIME 0.5f
// Points the unbury search tries along each direction: the reach, its half, quarter, ... (TR_UNBURY_RUNGS of them).
#define TR_UNBURY_RUNGS 5
// Horizontal directions the unbury search tries (evenly spaced about up), level, rising and sinking.
#define TR_UNBURY_AROUND 8
// Directions in all: up, the level, rising and sinking rings, down, and the contacts' normals.
#define TR_UNBURY_DIRECTIONS (2 + 3 * TR_UNBURY_AROUND + TR_RECOVER_CONTACTS)
// Directions the escape tries aside, evenly spaced about the push (the eight compass points of its plane).
#define TR_ESCAPE_AROUND 8
// Distances aside each direction tries: its sweep's reach, half, quarter, ... (the first that fits is refined).
#define TR_ESCAPE_RUNGS 6
// Halvings of the interval between the last rung that did not fit and the first that did (2^-10 of a rung: under
// 0.2 mm for a 3 m reach).
#define TR_ESCAPE_BISECTIONS 10
// A spot is free when nothing overlaps it deeper than this (metres). Not the millimetre the API allows: a crush
// begins a few millimetres deep, and a spot only a millimetre less deep (a capsule's rounded bottom rising past a
// wall's top edge) counted as free, 2.7 m up.
#define TR_ESCAPE_ALLOWANCE TR_PENETRATION_SLOP
// A direction aside goes into a crusher when it runs against the normal of a crusher's face the character touches by
// more than this cosine (84 degrees from the face: along it is fine).
#define TR_ESCAPE_INWARD 0.1f

// The convex bodies the character is inside of: the push leaves them, so the slide out ignores them. Deep in a box,
// the skin-grown shape's separating axis can point the other way from the bare shape's push (down, not up) and
// held the push at once: a box character spawned 1 m inside a crate stayed there. Meshes, heightfields and voxels
// stay in: leaving one piece must not enter the next.
// (Another character of a batch counts as one convex body.)
typedef struct inside_of {
    tread_body_id bodies[TR_RECOVER_CONTACTS];
    int32_t characters[TR_RECOVER_CONTACTS];
    tr_who_set all_but; // over the two lists: everything but them passes
} inside_of;

static void inside_begin(inside_of *in) { in->all_but = (tr_who_set){in->bodies, 0, in->characters, 0, false}; }

static void inside_add(inside_of *in, tr_who who) {
    if (!tr_who_set_passes(&in->all_but, who)) return; // listed
    if (who.character >= 0) in->characters[in->all_but.character_count++] = who.character;
    else in->bodies[in->all_but.body_count++] = who.body;
}

// The collide filter that leaves out what the character is inside of.
static tread_query_filter leaving_filter(const tread_character *ch, const inside_of *in) {
    tread_query_filter f = tr_collide_filter(ch);
    f.callback = tr_who_filter;
    f.context = (void *)(uintptr_t)&in->all_but; // (read only: the filter's context is not const)
    return f;
}

float tr_unbury_reach(const tread_character_settings *s) { return tr_maxf(3.0f * tr_body_reach(s), TR_UNBURY_MIN_REACH) + s->skin; }

// The nearest spot along one direction where the shape is free, if nearer than `best` (and, given `in`, reached by a
// sweep through those bodies and nothing else): from points out along it
// (a ladder doubling up to the search reach; the first free one), cast back toward the character; the first
// surface met bounds the free stretch that point lies in. A point that is not free says nothing: the ladder goes
// on (a sphere under a crate, walls around, found nothing 2 m out but was free 0.3 m out).
static tread_result free_along(const tr_move_query *q, const tread_character *ch, const inside_of *in, tread_vec3 feet, tread_vec3 dir,
                               float best, float *out_distance) {
    const tread_character_settings *s = &ch->settings;
    float reach = tr_unbury_reach(s);
    *out_distance = FLT_MAX;
    float previous = 0.0f;
    for (int k = TR_UNBURY_RUNGS - 1; k >= 0; --k) {
        float d = reach / (float)(1 << k);
        if (previous >= best) return TREAD_OK; // whatever lies beyond is farther than what was found
        tread_vec3 far = tread_v3_mad(feet, d, dir);
        bool fits = false;
        tread_result r = tr_fits(q, ch, far, 0.0f, &fits);
        if (r != TREAD_OK) return r;
        if (!fits) {
            previous = d;
            continue;
        }
        tread_query_shape shape = tr_body_shape(ch, 0.0f);
        tread_query_filter filter = tr_collide_filter(ch);
        tread_shape_hit hit;
        if ((r = tr_query_cast(q, &shape, tr_center(ch, far), tread_v3_scale(dir, -d), &filter, &hit)) != TREAD_OK) return r;
        // Stop a skin short of the surface, so the spot keeps the gap every shape keeps.
        float back = hit.hit ? tr_maxf(0.0f, hit.fraction * d - s->skin) : d;
        float at = d - back;
        // Given what it is inside of, only a spot a sweep from where it is reaches, through those and nothing else:
        // a spot across a wall or on top of a ceiling slab is no way out (crushed against a wall, a character was
        // put on its far side).
        if (in && at > TR_MIN_MOVE) {
            tread_query_filter leaving = leaving_filter(ch, in);
            if ((r = tr_query_cast(q, &shape, tr_center(ch, feet), tread_v3_scale(dir, at), &leaving, &hit)) != TREAD_OK) return r;
            if (hit.hit && hit.fraction * at < at - 2.0f * s->skin) return TREAD_OK; // blocked: nothing along here
        }
        *out_distance = at;
        return TREAD_OK;
    }
    return TREAD_OK;
}

// Unburying: the nearest free spot within tr_unbury_reach, tried straight up, around up (level and rising), along
// the normals of the contacts it is in and, only when none of those is free, sinking and straight down (down
// through a mesh floor is a fall-through). Ties go to the earlier direction: deterministic.
static tread_result unbury(const tr_move_query *q, const tread_character *ch, const inside_of *in, tread_vec3 feet,
                           const tread_contact *contacts, int count, tread_vec3 *out_push, bool *out_found) {
    const tread_vec3 up = ch->settings.up;
    tread_vec3 ref = fabsf(up.y) < 0.9f ? tread_v3(0.0f, 1.0f, 0.0f) : tread_v3(1.0f, 0.0f, 0.0f);
    tread_vec3 x = tread_v3_normalize(tread_v3_reject(ref, up)), z = tread_v3_cross(x, up);
    tread_vec3 dirs[TR_UNBURY_DIRECTIONS];
    int n = 0, rising = 0;
    dirs[n++] = up;
    for (int k = 0; k < TR_UNBURY_AROUND; ++k) {
        // Evenly spaced without libm: the eight compass points (TR_UNBURY_AROUND is 8).
        static const float c8[8][2] = {{1, 0}, {0.70710678f, 0.70710678f}, {0, 1}, {-0.70710678f, 0.70710678f},
                                       {-1, 0}, {-0.70710678f, -0.70710678f}, {0, -1}, {0.70710678f, -0.70710678f}};
        tread_vec3 h = tread_v3_add(tread_v3_scale(x, c8[k][0]), tread_v3_scale(z, c8[k][1]));
        dirs[n++] = h;
        dirs[n++] = tread_v3_normalize(tread_v3_add(h, up));
    }
    for (int i = 0; i < count; ++i)
        if (contacts[i].separation < -TR_PENETRATION_SLOP && tread_v3_dot(contacts[i].normal, up) >= 0.0f) dirs[n++] = contacts[i].normal;
    rising = n;
    for (int k = 0; k < TR_UNBURY_AROUND; k += 1) {
        tread_vec3 h = dirs[1 + 2 * k];
        dirs[n++] = tread_v3_normalize(tread_v3_sub(h, up));
    }
    for (int i = 0; i < count; ++i)
        if (contacts[i].separation < -TR_PENETRATION_SLOP && tread_v3_dot(contacts[i].normal, up) < 0.0f) dirs[n++] = contacts[i].normal;
    dirs[n++] = tread_v3_neg(up);

    *out_found = false;
    float best = FLT_MAX;
    for (int i = 0; i < n; ++i) {
        if (i == rising && *out_found) break; // sinking only when nothing level or rising is free
        float d;
        tread_result r = free_along(q, ch, in, feet, dirs[i], best, &d);
        if (r != TREAD_OK) return r;
        if (d < best) {
            best = d;
            *out_push = tread_v3_scale(dirs[i], d);
            *out_found = true;
        }
    }
    return TREAD_OK;
}

// The convex bodies of `contacts` the shape is inside of (deeper than the slop).
static tread_result convex_inside(const tr_move_query *q, const tread_contact *contacts, int count, inside_of *out) {
    inside_begin(out);
    for (int i = 0; i < count; ++i) {
        bool convex = false;
        if (-contacts[i].separation <= TR_PENETRATION_SLOP) continue;
        tread_result r = tr_query_body_is_convex(q, TR_WHO(contacts[i]), &convex);
        if (r != TREAD_OK) return r;
        if (convex) inside_add(out, TR_WHO(contacts[i]));
    }
    return TREAD_OK;
}

// Walk `push` out at the recovery speed: *out_wanted is its length after the speed limit, *out_push how far the
// slide went. Out of one body, never into another: the push slides as a move does, along anything it was not
// already inside of (casts leave what they start in; convex bodies it is inside of are left out, above). Pushed
// out of a sphere straight into a mesh floor, the soak's character ended 3.8 cm below the floor's top.
static tread_result push_out(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 push, float dt,
                             const tread_contact *contacts, int count, tread_vec3 *out_push, float *out_wanted) {
    float limit = ch->settings.recovery_speed * dt;
    float len = tread_v3_length(push);
    if (len > limit) push = tread_v3_scale(push, limit / len);
    *out_wanted = tr_minf(len, limit);
    inside_of in;
    tread_result r = convex_inside(q, contacts, count, &in);
    if (r != TREAD_OK) return r;
    tread_query_filter leaving = leaving_filter(ch, &in);
    tr_slide_result slid;
    if ((r = tr_slide_filtered(q, ch, feet, push, TR_SLIDE_AIR, &leaving, NULL, &slid)) != TREAD_OK) return r;
    // Never back in against the push: the slide keeps its skin from what it is pressed against and leaves out what
    // it walks out of, so squeezed between the two it went the other way (a capsule between a turning platform and
    // a mesh went 0.1 mm deeper into the platform a frame, past the millimetre allowed).
    tread_vec3 out = tread_v3_sub(slid.feet, feet);
    if (*out_wanted > 0.0f) {
        tread_vec3 dir = tread_v3_scale(push, 1.0f / *out_wanted);
        out = tread_v3_mad(out, -tr_minf(0.0f, tread_v3_dot(out, dir)), dir);
    }
    *out_push = out;
    return TREAD_OK;
}

// ---- Crushes: the way out of a moving body that pressed the character against something else.

bool tr_crush_has(const tr_crush *crush, tread_body_id body) {
    for (int i = 0; i < crush->count; ++i)
        if (tread_body_id_equal(crush->bodies[i], body)) return true;
    return false;
}

void tr_crush_add(tr_crush *crush, tread_body_id body) {
    if (crush->count < TR_CRUSHERS && !tr_crush_has(crush, body)) crush->bodies[crush->count++] = body;
}

// The collide filter passing only the crushing bodies, or (only false) all but them, `set` naming them.
static tread_query_filter crushers_filter(const tread_character *ch, const tr_crush *crush, bool only, tr_who_set *set) {
    *set = (tr_who_set){crush->bodies, crush->count, NULL, 0, only};
    tread_query_filter f = tr_collide_filter(ch);
    f.callback = tr_who_filter;
    f.context = set;
    return f;
}

// How far the bare shape at `feet`, swept along `motion` with the crushers left out, goes before it meets anything
// else (a skin short of it), as a share of the motion in [0, 1].
static tread_result sweep_share(const tr_move_query *q, const tread_character *ch, const tr_crush *crush, tread_vec3 feet,
                                tread_vec3 motion, float *out_share) {
    float len = tread_v3_length(motion);
    *out_share = 1.0f;
    if (len <= TR_MIN_MOVE) return TREAD_OK;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    // (The escape sweeps through the crushers, which it starts inside of, never through anything else.)
    tr_who_set all_but;
    tread_query_filter filter = crushers_filter(ch, crush, false, &all_but);
    tread_shape_hit hit;
    tread_result r = tr_query_cast(q, &shape, tr_center(ch, feet), motion, &filter, &hit);
    if (r == TREAD_OK && hit.hit) *out_share = tr_maxf(0.0f, hit.fraction * len - ch->settings.skin) / len;
    return r;
}

// From `from`, the rest of the push (`rest`) as far as it sweeps; *out_fits: the shape is free there (of the crushers
// too). A spot reached by the sweep is never across anything but a crusher.
static tread_result spot_after(const tr_move_query *q, const tread_character *ch, const tr_crush *crush, tread_vec3 from, tread_vec3 rest,
                               tread_vec3 *out_spot, bool *out_fits) {
    float share;
    tread_result r = sweep_share(q, ch, crush, from, rest, &share);
    if (r != TREAD_OK) return r;
    *out_spot = tread_v3_mad(from, share, rest);
    return tr_fits(q, ch, *out_spot, TR_ESCAPE_ALLOWANCE, out_fits);
}

tread_result tr_crush_escape(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_vec3 rest, const tr_crush *crush,
                             tread_vec3 *out_feet, float *out_aside, bool *out_found) {
    const tread_character_settings *s = &ch->settings;
    *out_feet = feet;
    *out_aside = 0.0f;
    *out_found = false;
    // The plane across the push: its first direction as near up as the push allows (rising out beats going sideways
    // at a tie), then the compass points of the plane in order (deterministic).
    tread_vec3 n = tread_v3_length(rest) > TR_MIN_MOVE ? tread_v3_normalize(rest) : s->up;
    tread_vec3 a = tread_v3_reject(s->up, n);
    if (tread_v3_length(a) < 0.1f) a = tread_v3_reject(fabsf(n.x) < 0.9f ? tread_v3(1.0f, 0.0f, 0.0f) : tread_v3(0.0f, 0.0f, 1.0f), n);
    a = tread_v3_normalize(a);
    tread_vec3 b = tread_v3_cross(n, a);
    static const float c8[TR_ESCAPE_AROUND][2] = {{1, 0}, {0.70710678f, 0.70710678f}, {0, 1}, {-0.70710678f, 0.70710678f},
                                                 {-1, 0}, {-0.70710678f, -0.70710678f}, {0, -1}, {0.70710678f, -0.70710678f}};
    // Straight on along the push first: nothing aside (a body teleported onto it, or that came down from above and
    // leaves a way out along its push).
    tread_vec3 spot;
    bool fits = false;
    tread_result r = spot_after(q, ch, crush, feet, rest, &spot, &fits);
    if (r != TREAD_OK || fits) {
        *out_feet = spot;
        *out_found = fits;
        return r;
    }
    // Never aside into a crusher, only along or out of it: a closed mesh's inside is free of its triangles, and a
    // capsule on a rising platform went 1.6 m down into it (its faces where the character touches them face out).
    tread_contact into[TR_RECOVER_CONTACTS];
    int touching = 0;
    bool overflow = false;
    tread_query_shape bare = tr_body_shape(ch, 0.0f);
    tr_who_set only;
    tread_query_filter crushers = crushers_filter(ch, crush, true, &only);
    r = tr_query_contacts(q, &bare, tr_center(ch, feet), s->skin, &crushers, into, TR_RECOVER_CONTACTS, &touching, &overflow);
    if (r != TREAD_OK) return r;
    float reach = tr_unbury_reach(s), best = FLT_MAX;
    for (int k = 0; k < TR_ESCAPE_AROUND; ++k) {
        tread_vec3 dir = tread_v3_add(tread_v3_scale(a, c8[k][0]), tread_v3_scale(b, c8[k][1]));
        bool inward = false;
        for (int i = 0; i < touching && !inward; ++i) inward = tread_v3_dot(dir, into[i].normal) < -TR_ESCAPE_INWARD;
        if (inward) continue;
        // How far aside it can go: swept with the crushers left out, it stops at anything else.
        float share;
        if ((r = sweep_share(q, ch, crush, feet, tread_v3_scale(dir, reach), &share)) != TREAD_OK) return r;
        float travel = share * reach, lo = 0.0f;
        if (travel <= TR_MIN_MOVE) continue;
        for (int rung = TR_ESCAPE_RUNGS - 1; rung >= 0; --rung) {
            float d = travel / (float)(1 << rung);
            if (d >= best) break; // not nearer than what another direction found
            if ((r = spot_after(q, ch, crush, tread_v3_mad(feet, d, dir), rest, &spot, &fits)) != TREAD_OK) return r;
            if (!fits) {
                lo = d;
                continue;
            }
            // The nearest free spot between the rung that did not fit and this one.
            float hi = d;
            for (int i = 0; i < TR_ESCAPE_BISECTIONS; ++i) {
                float mid = 0.5f * (lo + hi);
                tread_vec3 at;
                if ((r = spot_after(q, ch, crush, tread_v3_mad(feet, mid, dir), rest, &at, &fits)) != TREAD_OK) return r;
                if (fits) hi = mid, spot = at;
                else lo = mid;
            }
            best = hi;
            *out_feet = spot;
            *out_aside = hi;
            *out_found = true;
            break;
        }
    }
    return TREAD_OK;
}

// The bodies the bare shape at `feet` overlaps or touches.
static tread_result overlaps(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, tread_contact *contacts, int *out_count,
                             bool *out_overflow) {
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    return tr_query_contacts(q, &shape, tr_center(ch, feet), 0.0f, &filter, contacts, TR_RECOVER_CONTACTS, out_count, out_overflow);
}

// The push out of every contact, relaxed against each in turn (contacts come sorted: deterministic); overlaps within
// `slop` are left.
static tread_vec3 relaxed_push(const tread_contact *contacts, int count, float slop) {
    tread_vec3 push = tread_v3_zero();
    for (int it = 0; it < TR_RECOVER_ITERATIONS; ++it) {
        for (int i = 0; i < count; ++i) {
            float missing = -contacts[i].separation - tread_v3_dot(push, contacts[i].normal);
            if (missing > slop) push = tread_v3_mad(push, missing, contacts[i].normal);
        }
    }
    return push;
}

// Does `push` leave any contact more than `allowance` deep (as the contacts, linearised, say)? Pressed between two
// bodies from opposite sides, the relaxed push satisfies the last one it relaxed against and goes deeper into the
// other: a sphere teleported between two boxes walked toward a free spot 0.5 m off, 5 mm deeper into the box it
// was deepest in on the way.
static bool leaves_in(const tread_contact *contacts, int count, tread_vec3 push, float allowance) {
    for (int i = 0; i < count; ++i)
        if (-contacts[i].separation - tread_v3_dot(push, contacts[i].normal) > allowance) return true;
    return false;
}

// Out of the other characters it overlaps (and nothing of the world), at the recovery speed: the push relaxed against
// them, slid along everything; squeezed between several, as far as the pushes leave, and never a jump.
static tread_result out_of_others(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float dt, tread_vec3 *out_push) {
    tread_contact contacts[TR_RECOVER_CONTACTS];
    int count = 0;
    bool overflow = false;
    tread_result r = overlaps(q, ch, feet, contacts, &count, &overflow);
    if (r != TREAD_OK) return r;
    tread_vec3 push = relaxed_push(contacts, count, TR_PENETRATION_SLOP);
    if (tread_v3_length(push) <= TR_PENETRATION_SLOP) return TREAD_OK;
    float wanted = 0.0f;
    return push_out(q, ch, feet, push, dt, contacts, count, out_push, &wanted);
}

// Buried inside moving bodies (kinematic or dynamic, deeper than the slop: *out_moving names them): a body that
// moved into it and pressed it against something else, or goes on pressing. It is crushed, not unburied: the
// nearest free spot may be across the wall it is pressed against, or on top of the slab a lift carried it into.
static tread_result moving_inside(const tr_move_query *q, const tread_contact *contacts, int count, float deeper_than,
                                  tr_crush *out_moving) {
    *out_moving = (tr_crush){.count = 0, .aside = 0.0f};
    for (int i = 0; i < count; ++i) {
        tread_body_type type;
        uint32_t flags;
        if (-contacts[i].separation <= deeper_than) continue;
        tread_result r = tr_query_body_kind(q, TR_WHO(contacts[i]), &type, &flags);
        if (r != TREAD_OK) return r;
        TR_ASSERT(contacts[i].character < 0); // (the world's bodies only: tr_recover)
        if (type != TREAD_BODY_STATIC) tr_crush_add(out_moving, contacts[i].body);
    }
    return TREAD_OK;
}

tread_result tr_recover(const tr_move_query *move, const tread_character *ch, tread_vec3 feet, float dt, tr_crush *crush,
                        tread_vec3 *out_push, bool *out_unburied, float *out_left) {
    // The world's bodies decide burial: the other characters of a batch are the batch's to part (by mass, after the
    // moves). Counted as burial, a character squeezed among others jumped up to 3 m to a free spot: onto heads,
    // through walls (382 jumps in two crowds of 50 crossing a corridor, 23 left the level). Overlapping only
    // characters, it is pushed out of them at the recovery speed, never unburied.
    tr_move_query world_only; // (copied only in a batch: the context is not small)
    const tr_move_query *q = move;
    if (move->crowd.world) {
        world_only = *move;
        world_only.crowd.world = NULL;
        q = &world_only;
    }
    const tread_character_settings *s = &ch->settings;
    tread_contact contacts[TR_RECOVER_CONTACTS];
    int count = 0;
    bool overflow = false;
    *out_push = tread_v3_zero();
    *out_unburied = false;
    *out_left = 0.0f;
    tread_result r = overlaps(q, ch, feet, contacts, &count, &overflow);
    if (r != TREAD_OK) return r;
    // The bodies the push crushed it with are left as they are: it stays in them rather than be pushed out through
    // what it was pressed against.
    int kept = 0;
    for (int i = 0; i < count; ++i)
        if (!tr_crush_has(crush, contacts[i].body)) contacts[kept++] = contacts[i];
    count = kept;
    float deepest = 0.0f;
    for (int i = 0; i < count; ++i) deepest = tr_maxf(deepest, -contacts[i].separation);
    if (deepest <= TR_PENETRATION_SLOP) return move->crowd.world && crush->count == 0 ? out_of_others(move, ch, feet, dt, out_push) : TREAD_OK;

    tread_vec3 push = relaxed_push(contacts, count, 0.0f);
    // Buried: the pushes cancel (between opposite faces), there are more contacts than the buffer holds, the full
    // push does not lead out (into another body, or deeper into a mesh it pierces) or the way out is blocked.
    // Walking out at the recovery speed would never end (or take longer than TR_RECOVER_WALK_TIME): jump to the
    // nearest free spot instead. Overlaps within TR_RECOVER_FREE_SLACK are never buried (a character wedged in a
    // crevice touching both walls stays).
    bool shallow = deepest <= TR_RECOVER_FREE_SLACK;
    float len = tread_v3_length(push);
    bool buried = !shallow && (overflow || len < 0.5f * deepest || len > s->recovery_speed * TR_RECOVER_WALK_TIME ||
                               leaves_in(contacts, count, push, tr_maxf(TR_RECOVER_FREE_SLACK, TR_RECOVER_RESIDUE * deepest)));
    if (!buried && !shallow) {
        bool fits = false;
        if ((r = tr_fits(q, ch, tread_v3_add(feet, push), tr_maxf(TR_RECOVER_FREE_SLACK, TR_RECOVER_RESIDUE * deepest), &fits)) != TREAD_OK)
            return r;
        buried = !fits;
    }
    if (shallow && tread_v3_length(push) < 0.5f * deepest) push = tread_v3_scale(s->up, deepest);
    tr_crush moving;
    if (!buried) {
        float wanted = 0.0f;
        if ((r = push_out(q, ch, feet, push, dt, contacts, count, out_push, &wanted)) != TREAD_OK) return r;
        if (shallow || tread_v3_length(*out_push) >= 0.5f * wanted) {
            *out_left = tr_maxf(0.0f, tread_v3_length(push) - tread_v3_length(*out_push)); // (of the whole way out)
            // Still inside a moving body after this frame's walk out: the body's push could not be made (it went into
            // the character: squeezed out along a piston's end, a crowd's character was 23 cm inside it, walking out,
            // with crushed false). It is crushed by that body until it is out.
            if (!shallow && (r = moving_inside(q, contacts, count, wanted + TR_CRUSH_DEPTH, &moving)) != TREAD_OK) return r;
            for (int i = 0; !shallow && i < moving.count; ++i) tr_crush_add(crush, moving.bodies[i]);
            return TREAD_OK;
        }
    }
    // Buried in a moving body: out along the push, swept with the moving bodies left out, when that leads to a free
    // spot (a body that came down on it from above, or was teleported onto it); else crushed, out as a crush goes
    // (aside, then along the push) or nowhere: it stays, overlapping only them.
    if ((r = moving_inside(q, contacts, count, TR_PENETRATION_SLOP, &moving)) != TREAD_OK) return r;
    if (moving.count > 0) {
        // (No longer than it is deep in what pushed it: relaxed against many contacts the push grows longer, and a
        // crushed move goes at most its aside and this far: types.h, crushed_aside. Not as deep as it is in a
        // heightfield as well: a box teleported into a slab, its corner under a terrain's edge, went 0.45 m along
        // the push for 0.25 m in the slab, the terrain's push up through its surface (0.6 m) taken for the way out.)
        float in_moving = 0.0f;
        for (int i = 0; i < count; ++i)
            if (tr_crush_has(&moving, contacts[i].body)) in_moving = tr_maxf(in_moving, -contacts[i].separation);
        len = tread_v3_length(push);
        tread_vec3 dir = len > TR_MIN_MOVE ? tread_v3_scale(push, 1.0f / len) : s->up;
        tread_vec3 rest = tread_v3_scale(dir, tr_minf(len, in_moving) + s->skin);
        tread_vec3 spot;
        bool found = false;
        *out_push = tread_v3_zero();
        if ((r = tr_crush_escape(move, ch, feet, rest, &moving, &spot, &moving.aside, &found)) != TREAD_OK) return r;
        if (found) *out_push = tread_v3_sub(spot, feet);
        if (found && moving.aside == 0.0f) {
            *out_unburied = true;
            return TREAD_OK;
        }
        for (int i = 0; i < moving.count; ++i) tr_crush_add(crush, moving.bodies[i]);
        if (crush->aside == 0.0f) crush->aside = moving.aside;
        // Nowhere to go: it stays, overlapping only the moving bodies. Buried in static ones as well (teleported
        // into a box a platform then entered; a box character pressed by a turning platform into a heightfield
        // stayed 0.6 m in the terrain for seconds), it is unburied out of all of them below.
        bool in_static = false;
        for (int i = 0; i < count && !in_static; ++i)
            in_static = -contacts[i].separation > TR_RECOVER_FREE_SLACK && !tr_crush_has(&moving, contacts[i].body);
        if (found || !in_static) return TREAD_OK;
    }
    // The way to a free spot may pass through what it is buried in (all of it: a heightfield edited onto it held a
    // sweep that left only convex bodies out), never through anything else.
    inside_of in;
    inside_begin(&in);
    for (int i = 0; i < count; ++i)
        if (-contacts[i].separation > TR_PENETRATION_SLOP) inside_add(&in, TR_WHO(contacts[i]));
    if ((r = unbury(q, ch, &in, feet, contacts, count, out_push, out_unburied)) != TREAD_OK || *out_unburied) return r;
    // None: the nearest free spot at all, as before the sweeps were asked, where only static bodies hold it: it was
    // teleported or spawned inside them, or they were put on it, and no way out of them leads anywhere (a box
    // character teleported 1.2 m into a box, a terrain hill beside it, rose at the recovery speed ever deeper into
    // the box). Crushed as well (a moving body buries it too), it never jumps (types.h, crushed): that spot was on
    // top of a slab 0.4 m thick above a box character teleported into a platform and a terrain, 1.1 m up. Nor does
    // it walk out: it stays, as a crushed character with nowhere to go does, until the moving body leaves it (at the
    // recovery speed, a box character teleported 1 m into a box a platform also pressed into rose deeper into the
    // box, whose nearer face was below it; walked along the push out, the slide lifted it deeper still).
    if (moving.count > 0) return TREAD_OK;
    if ((r = unbury(q, ch, NULL, feet, contacts, count, out_push, out_unburied)) != TREAD_OK || *out_unburied) return r;
    // Nowhere free within reach: rise out at the recovery speed (Staxel's answer to starting inside the ground).
    float wanted = 0.0f;
    return push_out(q, ch, feet, tread_v3_scale(s->up, deepest), dt, contacts, count, out_push, &wanted);
}
