// SPDX-License-Identifier: MIT
// The batch update: many characters moved one frame as obstacles to each other. The others are bodies of a world of
// their own (its broadphase is the characters' broadphase), placed where each stood when the frame began and
// ordered by position, not by their index in the caller's array, so every character meets the same obstacles
// whatever the order: each moves against the world and the others' start-of-frame shapes (Jolt's character-vs-
// character tests every other character; here the broadphase finds the few near one). The moves are independent:
// they run on any threads. Then, in rank order, one body moved as its character moves: a character that walked into
// another pushes it ahead by its mass's share of the motion, as far as the world and the crowd let it go, and
// follows; two that walked into the same gap and overlap by what both moved are parted, the overlap split by mass
// (Gauss-Seidel passes over the characters that moved). Overlap with other characters never buries a character:
// a crowd squeezes, it does not teleport anyone.
#include "batch_bodies.h"
#include "character_internal.h"
#include "contacts.h"
#include "../validate.h"
#include "../pool.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// Overlap between two characters the separation leaves (metres): a tenth of a millimetre.
#define TR_BATCH_SLOP 1.0e-4f
// Most other characters one character is parted from per pass (the nearest ones; contacts come sorted).
#define TR_BATCH_CONTACTS 16

// The other characters one move met while moving, in the order met (its state's contacts naming them): the push pass
// reads them once every move is done.
typedef struct tr_met {
    int count;
    int32_t character[TREAD_MAX_MOVE_CONTACTS]; // index in the batch's arrays
    tread_vec3 normal[TREAD_MAX_MOVE_CONTACTS]; // from the other toward this one
} tr_met;

struct tread_batch {
    tread_batch_def def;
    tread_world *others;
    tread_body_id *bodies;  // per rank: the body of the character of that rank
    int *order;             // rank -> index in the caller's array
    int *rank;              // index -> rank
    tread_character *moved; // per index: the character after its move, until every move is done
    tr_met *met;            // per index: the other characters its move met
    tread_vec3 *shape;      // per rank: the body's shape (type, radius, height): reused while it fits
    bool *dirty;            // per rank: moved by the last separation pass
    tread_contact_memory *memories; // per index: the listener's contact memory (only once a listener has events)
    tread_contact_memory *touching; // per index: what its move this frame left it touching, for the listener once every
                                    // move succeeded (allocated with memories)
    int memory_capacity;
    const tread_contact_listener *listener; // this frame's (tread_batch_move_with), NULL: none
    tread_result *status;   // per index: its move's result this frame
    tread_move_cache_bodies *caches; // per index: the bodies its last move gathered (def.move_cache; NULL: none)
    tr_pool *pool;          // the built-in pool (NULL: moves run on the caller's thread or parallel_for)
    int capacity;
    int placed;             // bodies in `others`
    tread_batch_report report; // the last tread_batch_move* call's (tread_batch_get_report)
    // The first failed move by index, kept by the thread that ran it: its message is written on that thread (per-thread
    // messages), so the detail is copied here under the lock rather than the move run again on the caller's thread.
    atomic_flag failure_lock;
    int failure_index;                    // count: no move failed
    char failure_detail[TR_MESSAGE_SIZE]; // its message without the "TREAD_ERR_...: " prefix
};

tread_batch_def tread_batch_def_default(void) {
    tread_batch_def d;
    memset(&d, 0, sizeof d);
    d.capacity = 64;
    d.character_layer = TREAD_MAX_LAYERS - 1;
    d.separation_passes = 8;
    d.move_cache = true;
    d.internal_cookie = TR_COOKIE;
    return d;
}

static tread_result check_def(const tread_batch_def *d) {
    tread_result r = tr_check_cookie(d->internal_cookie, "def", "tread_batch_def", "tread_batch_def_default()");
    if (r != TREAD_OK) return r;
    if (d->capacity < 0 || d->capacity > TR_BATCH_MAX)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.capacity is %d; expected 0 .. %d", d->capacity, TR_BATCH_MAX);
    if (d->character_layer >= TREAD_MAX_LAYERS)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.character_layer is %u; expected 0 .. %d", d->character_layer, TREAD_MAX_LAYERS - 1);
    if (d->separation_passes < 1 || d->separation_passes > 64)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.separation_passes is %d; expected 1 .. 64", d->separation_passes);
    if (d->threads < 0 || d->threads > TR_POOL_MAX_THREADS)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.threads is %d; expected 0 .. %d", d->threads, TR_POOL_MAX_THREADS);
    return TREAD_OK;
}

static void free_arrays(tread_batch *b) {
    tr_free(b->bodies);
    tr_free(b->order);
    tr_free(b->rank);
    tr_free(b->moved);
    tr_free(b->met);
    tr_free(b->shape);
    tr_free(b->dirty);
    tr_free(b->status);
    tr_free(b->caches);
    b->status = NULL;
    b->caches = NULL;
    b->bodies = NULL, b->order = NULL, b->rank = NULL, b->moved = NULL, b->met = NULL, b->shape = NULL, b->dirty = NULL;
    b->capacity = 0;
}

static tread_result reserve(tread_batch *b, int count) {
    if (count <= b->capacity) return TREAD_OK;
    int cap = count > 2 * b->capacity ? count : 2 * b->capacity;
    tread_body_id *bodies = (tread_body_id *)tr_alloc(sizeof *bodies * (size_t)cap);
    int *order = (int *)tr_alloc(sizeof *order * (size_t)cap), *rank = (int *)tr_alloc(sizeof *rank * (size_t)cap);
    tread_character *moved = (tread_character *)tr_alloc(sizeof *moved * (size_t)cap);
    tr_met *met = (tr_met *)tr_alloc(sizeof *met * (size_t)cap);
    tread_vec3 *shape = (tread_vec3 *)tr_alloc(sizeof *shape * (size_t)cap);
    bool *dirty = (bool *)tr_alloc(sizeof *dirty * (size_t)cap);
    tread_result *status = (tread_result *)tr_alloc(sizeof *status * (size_t)cap);
    tread_move_cache_bodies *caches = b->def.move_cache ? (tread_move_cache_bodies *)tr_alloc(sizeof *caches * (size_t)cap) : NULL;
    if (!bodies || !order || !rank || !moved || !met || !shape || !dirty || !status || (b->def.move_cache && !caches)) {
        tr_free(bodies), tr_free(order), tr_free(rank), tr_free(moved), tr_free(met), tr_free(shape), tr_free(dirty);
        tr_free(status), tr_free(caches);
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "out of memory for a batch of %d characters", count);
    }
    if (b->placed > 0) { // (the first reserve has nothing to copy, from NULL)
        memcpy(bodies, b->bodies, sizeof *bodies * (size_t)b->placed);
        memcpy(shape, b->shape, sizeof *shape * (size_t)b->placed);
    }
    // (The caches kept, per index; the new ones empty.)
    for (int i = 0; caches && i < cap; ++i) caches[i] = i < b->capacity ? b->caches[i] : tread_move_cache_default().internal_bodies;
    free_arrays(b);
    b->bodies = bodies, b->order = order, b->rank = rank, b->moved = moved, b->met = met, b->shape = shape;
    b->dirty = dirty;
    b->status = status;
    b->caches = caches;
    b->capacity = cap;
    return TREAD_OK;
}

// Contact memories for `count` characters, zeroed when new, and as many lists of what each touches this frame (1.8 kB
// each: only for a listener's events).
static tread_result reserve_memories(tread_batch *b, int count) {
    if (count <= b->memory_capacity) return TREAD_OK;
    tread_contact_memory *m = (tread_contact_memory *)tr_alloc(sizeof *m * (size_t)count);
    tread_contact_memory *t = (tread_contact_memory *)tr_alloc(sizeof *t * (size_t)count);
    if (!m || !t) {
        tr_free(m), tr_free(t);
        return tr_error(TREAD_ERR_OUT_OF_MEMORY, "out of memory for the contact memories of %d characters", count);
    }
    memset(m, 0, sizeof *m * (size_t)count);
    if (b->memory_capacity > 0) memcpy(m, b->memories, sizeof *m * (size_t)b->memory_capacity);
    tr_free(b->memories);
    tr_free(b->touching);
    b->memories = m;
    b->touching = t;
    b->memory_capacity = count;
    return TREAD_OK;
}

tread_result tread_batch_create(const tread_batch_def *def, tread_batch **out_batch) {
    if (!def || !out_batch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "def or out_batch is NULL");
    tread_result r = check_def(def);
    if (r != TREAD_OK) return r;
    tread_batch *b = (tread_batch *)tr_alloc(sizeof *b);
    if (!b) return tr_error(TREAD_ERR_OUT_OF_MEMORY, "out of memory for a batch");
    memset(b, 0, sizeof *b);
    atomic_flag_clear(&b->failure_lock);
    b->report.result = TREAD_OK;
    b->report.failed_character = -1;
    b->def = *def;
    tread_world_def wd = tread_world_def_default();
    wd.body_capacity = def->capacity > 0 ? def->capacity : 1;
    if ((r = tread_world_create(&wd, &b->others)) != TREAD_OK || (r = reserve(b, def->capacity)) != TREAD_OK) {
        tread_batch_destroy(b);
        return r;
    }
    // Without threads to spare (or the system's refusal) the moves run on the caller's thread.
    if (!def->parallel_for) b->pool = tr_pool_create(def->threads == 0 ? tr_pool_machine_threads() : def->threads);
    *out_batch = b;
    return TREAD_OK;
}

void tread_batch_destroy(tread_batch *b) {
    if (!b) return;
    tr_pool_destroy(b->pool);
    tread_world_destroy(b->others);
    free_arrays(b);
    tr_free(b->memories);
    tr_free(b->touching);
    tr_free(b);
}

// Rank order: by position (x, then y, then z), the array index only between characters at the same spot.
static bool before(const tread_character *c, int i, int j) {
    tread_vec3 a = c[i].position, d = c[j].position;
    if (a.x != d.x) return a.x < d.x;
    if (a.y != d.y) return a.y < d.y;
    if (a.z != d.z) return a.z < d.z;
    return i < j;
}

// Merge sort of the ranks (stable, O(n log n), no recursion limits): `tmp` is scratch of count entries.
static void sort_ranks(const tread_character *c, int *order, int *tmp, int count) {
    for (int width = 1; width < count; width *= 2) {
        for (int lo = 0; lo < count; lo += 2 * width) {
            int mid = lo + width < count ? lo + width : count, hi = lo + 2 * width < count ? lo + 2 * width : count;
            int a = lo, d = mid, k = lo;
            while (a < mid || d < hi) tmp[k++] = (d >= hi || (a < mid && !before(c, order[d], order[a]))) ? order[a++] : order[d++];
        }
        memcpy(order, tmp, sizeof *order * (size_t)count);
    }
}

// The bodies of the others: one per character, at rank order, where it stands. A body is reused while its shape
// fits the character of its rank (moved, not made anew: a world refits a moved body in place, a new one waits to be
// sorted into its tree); the user data of each is its rank.
static tread_result place_all(tread_batch *b, const tread_character *c, int count, float dt) {
    while (b->placed > count) {
        tread_result r = tread_world_remove_body(b->others, b->bodies[--b->placed]);
        if (r != TREAD_OK) return r;
    }
    for (int k = 0; k < count; ++k) {
        const tread_character *ch = &c[b->order[k]];
        tread_vec3 center = tr_center(ch, ch->position);
        tread_vec3 key = tread_v3((float)ch->settings.shape, ch->settings.radius, ch->settings.height);
        tread_body_def def = tr_character_body_def(ch, center, b->def.character_layer);
        bool fits = k < b->placed && key.x == b->shape[k].x && key.y == b->shape[k].y && key.z == b->shape[k].z;
        if (!fits) {
            tread_result r;
            if (k < b->placed && (r = tread_world_remove_body(b->others, b->bodies[k])) != TREAD_OK) return r;
            def.user_data = (void *)(intptr_t)(k + 1);
            if ((r = tread_world_add_body(b->others, &def, &b->bodies[k])) != TREAD_OK) return r;
            b->shape[k] = key;
        }
        // Where it was a frame ago, as its own velocity says: a character standing on it is carried along.
        tread_vec3 velocity = tr_world_velocity(&ch->ground, ch->velocity);
        tr_place_character_body(b->others, b->bodies[k], tread_v3_mad(center, -dt, velocity), center, def.transform.q, velocity);
    }
    b->placed = count;
    tr_settle_character_bodies(b->others);
    return TREAD_OK;
}

// Character i's place among the others: the batch's characters as its move's second query source.
static tr_batch_place place_of(const tread_batch *b, int i) {
    tr_batch_place p = {{b->others, b->bodies, b->rank, b->order, b->placed, b->bodies[b->rank[i]]}, i, NULL};
    return p;
}

// Two characters are parted only when the listener lets each meet the other (a validate that says no to one of them
// makes them pass through each other, as it does in their moves).
static bool pair_meets(const tread_batch *b, const tread_character *c, int i, int j) {
    if (!b->listener || !b->listener->validate) return true;
    void *context = b->listener->context;
    return b->listener->validate(&c[i], i, tread_body_id_null(), j, context) && b->listener->validate(&c[j], j, tread_body_id_null(), i, context);
}

// How much of a push between characters i and j (the contact normal from j toward i) each takes: by mass, the
// heavier moving less, and only who may push whom (the listener's push callback) moves the other. Neither may:
// they part equally (the overlap has to go).
static void shares(const tread_batch *b, const tread_character *c, int i, int j, const tread_vec3 normal, float *out_i, float *out_j) {
    float mi = c[i].settings.mass, mj = c[j].settings.mass;
    if (b->listener && b->listener->push) {
        bool i_pushes = true, i_yields = true, j_pushes = true, j_yields = true;
        tread_contact_event e;
        memset(&e, 0, sizeof e);
        e.body_type = TREAD_BODY_DYNAMIC;
        e.body = tread_body_id_null();
        e.character = j, e.normal = normal;
        e.point = c[j].position;
        e.relative_velocity = tread_v3_sub(c[i].velocity, c[j].velocity);
        b->listener->push(&c[i], i, &e, &i_pushes, &i_yields, b->listener->context);
        e.character = i, e.normal = tread_v3_neg(normal);
        e.point = c[i].position;
        e.relative_velocity = tread_v3_neg(e.relative_velocity);
        b->listener->push(&c[j], j, &e, &j_pushes, &j_yields, b->listener->context);
        if (!(i_pushes && j_yields)) mi = 0.0f; // i cannot move j
        if (!(j_pushes && i_yields)) mj = 0.0f;
        if (mi == 0.0f && mj == 0.0f) mi = mj = 1.0f;
    }
    *out_i = mj / (mi + mj);
    *out_j = mi / (mi + mj);
}


// Put character i's body (rank k) where the character is now: its rotation and velocity were set this frame
// (place_all), only the centre moves.
static tread_result replace_body(tread_batch *b, const tread_character *ch, int k) {
    tread_vec3 center = tr_center(ch, ch->position);
    tread_transform now;
    tread_vec3 velocity, spin;
    tread_result r = tread_body_get_transform(b->others, b->bodies[k], &now);
    if (r != TREAD_OK || (r = tread_body_get_velocity(b->others, b->bodies[k], &velocity, &spin)) != TREAD_OK) return r;
    tr_place_character_body(b->others, b->bodies[k], center, center, now.q, velocity);
    return TREAD_OK;
}

// Nudge character i by `d` sliding along the world and the other characters (their bodies where they are now), and
// its body with it.
static tread_result part_among(tread_batch *b, const tr_source *w, tread_character *c, int i, tread_vec3 d) {
    if (tread_v3_length_sq(d) == 0.0f) return TREAD_OK;
    tr_batch_place among = place_of(b, i);
    tread_result r = tr_character_nudge(w, &among, &c[i], d);
    if (r != TREAD_OK) return r;
    return replace_body(b, &c[i], b->rank[i]);
}

// Nudge character i (rank k) by `d`, sliding along the world, and its body with it; it is to be looked at again.
static tread_result part(tread_batch *b, const tr_source *w, tread_character *c, int i, tread_vec3 d) {
    if (tread_v3_length_sq(d) == 0.0f) return TREAD_OK;
    tread_result r = tr_character_nudge(w, NULL, &c[i], d);
    if (r != TREAD_OK) return r;
    b->dirty[b->rank[i]] = true;
    return replace_body(b, &c[i], b->rank[i]);
}

// Pushing: a character that walked into another (it met the other's body and its velocity presses into it) pushes
// it ahead by the share of its own motion its mass gives it (m_i / (m_i + m_j)) and follows as far as the other
// went. The other slides along the world and the rest of the crowd and stops where they block it: a push never
// squeezes a third character (pushed blind, a queue was compressed a few centimetres a frame, more than the
// parting could undo). Gauss-Seidel in rank order, each body moved with its character. Two walking into each other
// push each other back equally hard: they stand; a heavy one pushes a light one faster than the reverse.
static tread_result push_pass(tread_batch *b, const tr_source *w, tread_character *c, const tread_vec3 *velocities, float dt, int count) {
    for (int k = 0; k < count; ++k) {
        int i = b->order[k];
        const tr_met *met = &b->met[i];
        if (!((c[i].settings.collide_mask >> b->def.character_layer) & 1u)) continue;
        for (int m = 0; m < met->count; ++m) {
            int j = met->character[m], seen = 0;
            for (int e = 0; e < m && !seen; ++e) seen = met->character[e] == j; // once per pair
            if (seen) continue;
            tread_vec3 n = met->normal[m];
            float press = -tread_v3_dot(tread_v3_scale(velocities[i], dt), n);
            if (!(press > 0.0f) || !pair_meets(b, c, i, j)) continue;
            float share_i, share_j;
            shares(b, c, i, j, n, &share_i, &share_j);
            if (!(share_j > 0.0f)) continue;
            tread_vec3 before = c[j].position;
            tread_result r = part_among(b, w, c, j, tread_v3_scale(n, -press * share_j));
            if (r != TREAD_OK) return r;
            float went = -tread_v3_dot(tread_v3_sub(c[j].position, before), n);
            if (went > 0.0f && (r = part_among(b, w, c, i, tread_v3_scale(n, -went))) != TREAD_OK) return r;
        }
    }
    return TREAD_OK;
}

// One separation pass, Gauss-Seidel in rank order: each character moved since it was last looked at (`dirty`; every
// one in the first pass) is parted from every other it still overlaps (deeper than TR_BATCH_SLOP) along the contact
// normal, the overlap split by mass, both moved at once, so the next one sees where they went. (A pass that
// computed every correction first and moved them all after left queues compressed: a push travels one character
// per pass that way, and 200 characters in a room kept 6 cm overlaps after 8 passes.)
static tread_result separate(tread_batch *b, const tr_source *w, tread_character *c, int count, bool *out_any) {
    *out_any = false;
    for (int k = 0; k < count; ++k) {
        int i = b->order[k];
        if (!b->dirty[k]) continue;
        b->dirty[k] = false;
        const tread_character *ch = &c[i];
        if (!((ch->settings.collide_mask >> b->def.character_layer) & 1u)) continue;
        tread_query_shape shape = tr_body_shape(ch, 0.0f);
        tread_query_filter filter = tread_query_filter_default();
        filter.layer_mask = 1u << b->def.character_layer;
        filter.ignore_body = b->bodies[k];
        tread_contact contacts[TR_BATCH_CONTACTS];
        int n = 0;
        bool overflow = false;
        tread_result r = tread_world_collect_contacts(b->others, &shape, tr_center(ch, ch->position), 0.0f, &filter, contacts,
                                                      TR_BATCH_CONTACTS, &n, &overflow);
        if (r != TREAD_OK) return r;
        for (int m = 0; m < n; ++m) {
            if (!(contacts[m].separation < -TR_BATCH_SLOP)) continue;
            int other = (int)(intptr_t)tread_body_user_data(b->others, contacts[m].body) - 1; // its rank (the crowd's world, queried directly)
            int j = b->order[other];
            if (!((c[j].settings.collide_mask >> b->def.character_layer) & 1u) || !pair_meets(b, c, i, j)) continue;
            float depth = -contacts[m].separation, share_i, share_j;
            shares(b, c, i, j, contacts[m].normal, &share_i, &share_j);
            // The normal points from the other toward this one: this one moves along it, the other against it.
            if ((r = part(b, w, c, i, tread_v3_scale(contacts[m].normal, depth * share_i))) != TREAD_OK) return r;
            if ((r = part(b, w, c, j, tread_v3_scale(contacts[m].normal, -depth * share_j))) != TREAD_OK) return r;
            *out_any = true;
        }
    }
    return TREAD_OK;
}

// One frame's moves, as a parallel-for task sees them.
typedef struct move_job {
    tread_batch *b;
    const tr_source *w;
    const tread_character *c;
    const tread_vec3 *velocities;
    float dt;
    const tread_move_options *options;
    bool events;
    bool meet; // the characters meet each other (else each moves as alone)
    tread_move_result *results;
} move_job;

// The other characters among the contacts the move met while moving (they come first in its state's list).
static void keep_met(const tread_move_state *st, tr_met *out) {
    int moving = st->contacts_kept < st->result.moving_contact_count ? st->contacts_kept : st->result.moving_contact_count;
    out->count = 0;
    for (int m = 0; m < moving; ++m) {
        if (st->contacts[m].character < 0) continue;
        out->character[out->count] = st->contacts[m].character;
        out->normal[out->count++] = st->contacts[m].normal;
    }
}

static tread_result move_one(const move_job *job, int i) {
    tread_batch *b = job->b;
    b->moved[i] = job->c[i];
    tr_batch_place place = {{NULL, NULL, NULL, NULL, 0, {0u, 0u}}, i, NULL};
    if (job->meet) place = place_of(b, i);
    place.bodies = b->caches ? &b->caches[i] : NULL;
    // (The listener hears nothing from a move: what it touches waits in `touching` until every move has succeeded.)
    tread_contact_memory *touching = job->events ? &b->touching[i] : NULL;
    // Its part of the caller's buffers.
    tread_move_options options = *job->options;
    if (options.contacts) options.contacts += (size_t)i * (size_t)options.contact_capacity;
    if (options.impulses) options.impulses += (size_t)i * (size_t)options.impulse_capacity;
    tread_move_state st;
    tread_result r = tr_character_move_among(job->w, &place, &b->moved[i], job->velocities[i], job->dt, &options, NULL, touching, &st);
    if (r != TREAD_OK) return r;
    job->results[i] = st.result;
    if (job->meet) keep_met(&st, &b->met[i]); // (read by the push pass only)
    return TREAD_OK;
}

// Keep move i's failure when it is the first by index so far (on the thread that ran it, where its message is).
static void note_failure(tread_batch *b, int i) {
    while (atomic_flag_test_and_set_explicit(&b->failure_lock, memory_order_acquire)) {
    }
    if (i < b->failure_index) {
        b->failure_index = i;
        snprintf(b->failure_detail, sizeof b->failure_detail, "%s", tr_error_detail());
    }
    atomic_flag_clear_explicit(&b->failure_lock, memory_order_release);
}

static void move_range(void *context, int begin, int end) {
    const move_job *job = (const move_job *)context;
    for (int i = begin; i < end; ++i) {
        tread_result r = move_one(job, i);
        job->b->status[i] = r;
        if (r != TREAD_OK) note_failure(job->b, i);
    }
}

// Moves per range handed to a thread: enough to pay for the hand-over, few enough to balance the load.
#define TR_BATCH_GRAIN 16

// task over [0, count) on the game's parallel-for or the batch's threads.
static void run_items(tread_batch *b, tread_task_fn *task, const move_job *job, int count) {
    void *context = (void *)(uintptr_t)job; // (the tasks read it as const)
    if (b->def.parallel_for && count > 0) b->def.parallel_for(task, context, count, b->def.parallel_context);
    else tr_pool_run(b->pool, task, context, count, TR_BATCH_GRAIN);
}

static tread_result all_ran(const tread_batch *b, int count) {
    for (int i = 0; i < count; ++i)
        if (b->status[i] == TREAD_RESULT_COUNT)
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "def.parallel_for did not run item %d of %d (every item exactly once)", i, count);
    return TREAD_OK;
}

// Character i's error (its message's detail `detail`, TREAD_ERR_ prefix apart), named by its index in the message and
// in the batch's report.
static tread_result fail_on(tread_batch *b, tread_result r, int i, const char *detail) {
    char message[TR_MESSAGE_SIZE]; // (a copy: tr_error rewrites the buffer a detail of this thread's points into)
    snprintf(message, sizeof message, "%s", detail);
    b->report.failed_character = i;
    return tr_error(r, "characters[%d]: %s", i, message);
}

// The batch update on a source (tread's own world or a backend), the source already checked. All or nothing: on an
// error no character changes, no contact memory changes and the listener hears nothing.
// Character i's arguments, its error named by its index (the message of a failed check pass).
static tread_result check_one(tread_batch *b, const move_job *job, int i) {
    char name[32];
    snprintf(name, sizeof name, "characters[%d]", i);
    tread_result r = tr_check_character(&job->c[i], name);
    if (r != TREAD_OK) {
        b->report.failed_character = i;
        return r;
    }
    if ((r = tr_check_move_args(job->w, &job->c[i], job->velocities[i], job->dt, &job->results[i], "result")) != TREAD_OK)
        return fail_on(b, r, i, tr_error_detail());
    return TREAD_OK;
}

static void check_range(void *context, int begin, int end) {
    const move_job *job = (const move_job *)context;
    for (int i = begin; i < end; ++i)
        job->b->status[i] = tr_check_move_args(job->w, &job->c[i], job->velocities[i], job->dt, &job->results[i], "result");
}

// Fewest characters whose checks are handed to the threads: a check costs about 0.1 us, waking the threads tens of
// microseconds.
#define TR_BATCH_THREADED_CHECKS 1024

// Every character's arguments checked before anything is placed or moved. The checks are the frame's per-character
// work too (a character's settings and state cost as much to check as a tenth of its move), so a big batch runs them
// on the threads; only the first failure by index is checked again here, to name it in the message as one pass would.
static tread_result check_all(tread_batch *b, const move_job *job, int count) {
    for (int i = 0; i < count; ++i) b->status[i] = TREAD_RESULT_COUNT; // not run yet
    if (count >= TR_BATCH_THREADED_CHECKS) run_items(b, check_range, job, count);
    else check_range((void *)(uintptr_t)job, 0, count);
    tread_result r = all_ran(b, count);
    for (int i = 0; r == TREAD_OK && i < count; ++i)
        if (b->status[i] != TREAD_OK) r = check_one(b, job, i);
    return r;
}

// Does any character collide with or stand on the characters' layer? When none does, they never meet: the batch only
// spreads their moves over its threads (no bodies for them, no pushing or parting, each move as if alone).
static bool characters_meet(const tread_batch *b, const tread_character *c, int count) {
    uint32_t layer = 1u << b->def.character_layer;
    for (int i = 0; i < count; ++i)
        if ((c[i].settings.collide_mask | c[i].settings.ground_mask) & layer) return true;
    return false;
}

static tread_result batch_frame(tread_batch *b, const tr_source *w, tread_character *c, const tread_vec3 *velocities, int count, float dt,
                                const tread_move_options *options, tread_move_result *results) {
    tread_result r;
    if (options) {
        if (options->memory)
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "options.memory is for single moves; a batch keeps each character's memory");
        if (options->cache)
            return tr_error(TREAD_ERR_INVALID_ARGUMENT, "options.cache is for single moves; a batch keeps each character's cache");
        // (The listener's events need no memory of the caller's here: the check sees a copy without the listener.)
        tread_move_options buffers = *options;
        buffers.listener = NULL;
        if ((r = tr_check_move_options(&buffers)) != TREAD_OK) return r;
    }
    tread_move_options moved_with = options ? *options : tread_move_options_default();
    const tread_contact_listener *l = moved_with.listener;
    bool events = tr_listener_has_events(l);
    if (count < 0 || count > TR_BATCH_MAX) return tr_error(TREAD_ERR_INVALID_ARGUMENT, "count is %d; expected 0 .. %d", count, TR_BATCH_MAX);
    if (count > 0 && (!c || !velocities || !results)) return tr_error(TREAD_ERR_NULL_ARGUMENT, "characters, velocities or results is NULL");
    if ((r = reserve(b, count)) != TREAD_OK) return r;
    move_job job = {b, w, c, velocities, dt, &moved_with, events, false, results};
    if ((r = check_all(b, &job, count)) != TREAD_OK) return r;
    if (events && (r = reserve_memories(b, count)) != TREAD_OK) return r;
    b->listener = l;
    bool meet = characters_meet(b, c, count);
    if (meet) {
        for (int i = 0; i < count; ++i) b->order[i] = i;
        sort_ranks(c, b->order, b->rank, count);
        for (int k = 0; k < count; ++k) b->rank[b->order[k]] = k;
        if ((r = place_all(b, c, count, dt)) != TREAD_OK) return r;
    }
    // Every character moves against the others' start-of-frame bodies, each on a copy, so nothing one move changes is
    // seen by another: the moves are independent, and run on any threads in any order with the same results.
    job.meet = meet;
    for (int i = 0; i < count; ++i) b->status[i] = TREAD_RESULT_COUNT; // not run yet
    b->failure_index = count;
    run_items(b, move_range, &job, count);
    if ((r = all_ran(b, count)) != TREAD_OK) return r;
    if (b->failure_index < count) return fail_on(b, b->status[b->failure_index], b->failure_index, b->failure_detail);
    // Pushing and parting work on the moved copies too: the caller's characters change only once all of it succeeded.
    tread_character *moved = b->moved;
    if (meet) {
        // The bodies where the characters are now (they stood where the frame began for the moves), all to be looked at.
        for (int k = 0; k < count; ++k) {
            if ((r = replace_body(b, &moved[b->order[k]], k)) != TREAD_OK) return r;
            b->dirty[k] = true;
        }
        if ((r = push_pass(b, w, moved, velocities, dt, count)) != TREAD_OK) return r;
        bool any = true;
        for (int pass = 0; pass < b->def.separation_passes && any; ++pass)
            if ((r = separate(b, w, moved, count, &any)) != TREAD_OK) return r;
    }
    // The frame happened: the listener hears of it now, character by character in index order on this thread, each
    // with the character as it was when the frame began (as a single move's callbacks see it).
    if (events)
        for (int i = 0; i < count; ++i) tr_deliver_events(l, &c[i], i, &b->touching[i], &b->memories[i]);
    if (count > 0) memcpy(c, moved, sizeof *c * (size_t)count);
    if (meet) {
        for (int i = 0; i < count; ++i) {
            results[i].position = c[i].position;
            results[i].ground = c[i].ground;
        }
    }
    return TREAD_OK;
}

static tread_result batch_move(tread_batch *b, const tr_source *w, tread_character *c, const tread_vec3 *velocities, int count, float dt,
                               const tread_move_options *options, tread_move_result *results) {
    if (!b) return tr_error(TREAD_ERR_NULL_ARGUMENT, "batch is NULL");
    b->report.failed_character = -1;
    b->report.result = batch_frame(b, w, c, velocities, count, dt, options, results);
    return b->report.result;
}

// The report of a call that failed before the batch was reached (the backend).
static tread_result report_early(tread_batch *b, tread_result r) {
    b->report.result = r;
    b->report.failed_character = -1;
    return r;
}

tread_result tread_batch_get_report(const tread_batch *b, tread_batch_report *out_report) {
    if (!b || !out_report) return tr_error(TREAD_ERR_NULL_ARGUMENT, "batch or out_report is NULL");
    *out_report = b->report;
    return TREAD_OK;
}

tread_result tread_batch_move(tread_batch *b, const tread_world *w, tread_character *c, const tread_vec3 *velocities, int count, float dt,
                              tread_move_result *results) {
    return tread_batch_move_with(b, w, c, velocities, count, dt, NULL, results);
}

tread_result tread_batch_move_with(tread_batch *b, const tread_world *w, tread_character *c, const tread_vec3 *velocities, int count,
                                   float dt, const tread_move_options *options, tread_move_result *results) {
    if (!b) return tr_error(TREAD_ERR_NULL_ARGUMENT, "batch is NULL");
    if (!w) return report_early(b, tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL"));
    tr_source src = tr_source_world(w);
    return batch_move(b, &src, c, velocities, count, dt, options, results);
}

tread_result tread_batch_move_on(tread_batch *b, const tread_backend *backend, tread_character *c, const tread_vec3 *velocities, int count,
                                 float dt, tread_move_result *results) {
    return tread_batch_move_with_on(b, backend, c, velocities, count, dt, NULL, results);
}

tread_result tread_batch_move_with_on(tread_batch *b, const tread_backend *backend, tread_character *c, const tread_vec3 *velocities,
                                      int count, float dt, const tread_move_options *options, tread_move_result *results) {
    if (!b) return tr_error(TREAD_ERR_NULL_ARGUMENT, "batch is NULL");
    tr_source src;
    tread_result r = tr_source_of(backend, &src);
    return r != TREAD_OK ? report_early(b, r) : batch_move(b, &src, c, velocities, count, dt, options, results);
}
