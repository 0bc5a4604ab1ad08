// SPDX-License-Identifier: MIT
// The controller's query layer: every world query a move makes goes through a per-move context. A move begins
// with its bounds — everything it can reach, validated once (finite; they may reach past the coordinate limit, which
// the feet keep to: character.c) — and then casts,
// collects contacts and probes inside them without re-validating each argument. Every query returns a status
// that its caller checks (a query outside the move's bounds is an error, not a silent miss), so a failure
// reaches the caller of the move with the character unchanged. The context is also where debug drawing sees
// what a move looked at.
#ifndef TREAD_MOVE_QUERY_H
#define TREAD_MOVE_QUERY_H

#include "source.h"

// Most bodies and characters whose validation (tread_contact_listener::validate) one move remembers; past them
// it asks again (the same answer: it is asked about the same move).
#define TR_VERDICTS 32
// One-way bodies block feet up to this far below their top (metres): rounding, not a way in from below.
#define TR_ONE_WAY_SLACK 1.0e-3f

// The listener's answers so far in one move: each body asked about once, whatever number of queries meet it.
typedef struct tr_verdicts {
    tread_body_id body[TR_VERDICTS]; // as the move's queries name them (characters tagged)
    bool accepted[TR_VERDICTS];
    int count;
} tr_verdicts;

// Most bodies of one world a move keeps as its candidates (more: its queries walk the world's tree themselves).
#define TR_MOVE_CANDIDATES 64
// The candidates are gathered this much beyond the move's bounds (metres): touching counts as a hit.
#define TR_GATHER_SLACK 1.0e-3f

// A move's candidate bodies in one world: gathered by one walk of its broad phase when the move begins, then
// every query of the move looks only at them (the per-move query context of docs/DESIGN.md).
typedef struct tr_candidates {
    int32_t slots[TR_MOVE_CANDIDATES];
    float bounds[6 * TR_MOVE_CANDIDATES]; // their boxes, as tr_scope's rows
    int count;
    bool gathered;   // false: none gathered (too many, or not yet): the queries walk the tree
    tread_aabb box;  // every body meeting it is a candidate; a query reaching out of it walks the tree
} tr_candidates;

// The reach of the phase running in the reference move's context (character.c sets it as each phase begins): debug
// builds hold every query to it as well as to the context's bounds, from where the phase began, as that phase alone
// would be bounded, and record the worst excess per thread (tr_reach_watch_take_excess; tests/test_reach.c).
typedef struct tr_reach_watch {
    tread_vec3 center;
    float reach;
} tr_reach_watch;

typedef struct tr_move_query {
    tr_source src;                     // tread's own world (direct calls) or another engine's backend, and its move
    tread_aabb bounds;                 // every query of this move stays inside (metres)
    tr_candidates near;                // the world's bodies within the bounds (tread's own world only)
    tr_candidates near_others;         // the other characters' bodies within them
    bool usual;                        // the move's usual reach was gathered (near.box holds it)
    const tread_query_filter *filter;  // the caller's filter for this move, on top of each query's; NULL: none
    const tread_world *others;         // the other characters of a batch update as bodies; NULL: none
    tread_body_id self;                // this character's own body among them (its id in `others`, untagged)
    const int *order;                  // others: rank (a body's user data - 1) -> index in the batch's arrays
    // Set by begin from the character: one-way bodies (when the world has any) block only feet at or above their
    // top, as the feet were when the move began.
    const tread_character *character;
    tread_vec3 up;
    float feet_height;                 // the feet along up, metres
    bool one_way;                      // the world has one-way bodies
    // The caller's listener (validate asked once per body per move) and the moving character's index for it.
    const tread_contact_listener *listener;
    int index;
    tr_verdicts *verdicts;             // NULL: no validation
    // The caller's buffer for every contact the move records (tr_record_contact); NULL: the result's own only.
    tread_contact *contacts;
    int contact_capacity;
    const tread_debug_draw *draw;      // the caller's debug drawing for this move; NULL: none
    tr_reach_watch *watch;             // the running phase's reach (reference move); NULL: the bounds only
} tr_move_query;

// (Bodies of `others` are named with TR_OTHERS_BIT set in their index, source.h.)

// Begin a move of `ch` (as it is now) around `center` that reaches at most `reach` metres from it (shape included),
// on `src` (a backend's begin_move is told the bounds, which may reach past TREAD_MAX_COORDINATE). Fails when the
// bounds are not finite or the backend's begin_move fails; once it succeeded, tr_move_query_end must follow. The move's filter, listener, contact
// buffer and the other characters start empty (NULL); set them after beginning.
tread_result tr_move_query_begin_on(tr_move_query *q, const tr_source *src, const tread_character *ch, tread_vec3 center, float reach);
// The same on tread's own world `w` (nothing to end).
tread_result tr_move_query_begin(tr_move_query *q, const tread_world *w, const tread_character *ch, tread_vec3 center, float reach);
// End a move (a backend's end_move); copies of the context made during the move end with it.
static inline void tr_move_query_end(tr_move_query *q) { tr_source_end(&q->src); }
// Gather the candidates of the move: the bodies within `reach` of `center` (its usual queries; those reaching farther,
// as a search for a way out of a burial, walk the tree). Without it every query walks the tree. On a backend only the
// other characters are gathered (the backend gathers its own at begin_move, if it likes).
void tr_move_query_gather(tr_move_query *q, tread_vec3 center, float reach);
// Add the other characters of a batch (bodies of `others`, this one `self` among them, `order` mapping their ranks
// to indices in the batch's arrays), gathering those within the candidates' box.
void tr_move_query_set_others(tr_move_query *q, const tread_world *others, tread_body_id self, const int *order);
// A body the move met: its type and flags (a character of the batch: dynamic, no flags).
tread_result tr_query_body_kind(const tr_move_query *q, tread_body_id body, tread_body_type *out_type, uint32_t *out_flags);
// The listener's validation of a body (tagged for a character): true without a validate callback.
bool tr_query_validated(const tr_move_query *q, tread_body_id body);
// The index in the batch's arrays of the character a body of `others` is (tagged id), or -1 for a world body.
int tr_query_character_of(const tr_move_query *q, tread_body_id body);

tread_result tr_query_cast(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                           const tread_query_filter *filter, tread_shape_hit *out_hit);
tread_result tr_query_cast_all(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                               const tread_query_filter *filter, tread_shape_hit *hits, int capacity, int *out_count);
// tr_query_cast_all keeping only the hits within `window` (a fraction of the translation) of the nearest: the first
// ones of cast_all's list, found without looking at what lies beyond them. window < 0: every hit.
tread_result tr_query_cast_near(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, tread_vec3 translation,
                                const tread_query_filter *filter, float window, tread_shape_hit *hits, int capacity, int *out_count);
tread_result tr_query_ray(const tr_move_query *q, tread_vec3 origin, tread_vec3 translation, const tread_query_filter *filter,
                          tread_ray_hit *out_hit);
tread_result tr_query_contacts(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float margin,
                               const tread_query_filter *filter, tread_contact *contacts, int capacity, int *out_count,
                               bool *out_overflow);
tread_result tr_query_closest(const tr_move_query *q, const tread_query_shape *shape, tread_vec3 position, float max_distance,
                              const tread_query_filter *filter, tread_distance_result *out_result);
// The body is still in the world (a public phase may run after the caller removed a body the update met).
bool tr_query_body_is_live(const tr_move_query *q, tread_body_id body);
// A body the move hit: its layer, and the velocity of its material at a point.
tread_result tr_query_body_layer(const tr_move_query *q, tread_body_id body, uint32_t *out_layer);
// Whether the body is one convex solid (sphere, capsule, box) rather than a mesh, heightfield or voxels.
tread_result tr_query_body_is_convex(const tr_move_query *q, tread_body_id body, bool *out_convex);
tread_result tr_query_point_velocity(const tr_move_query *q, tread_body_id body, tread_vec3 point, tread_vec3 *out_velocity);

// Where the ground body's motion over the last world advance took `point` (exactly: translation and rotation about
// any axis), and the rotation it turned by (current * inverse(previous)); a stale body moved nothing. A body of
// `others` (tagged) is a character of a batch. Read before a move begins: the carry widens the move's bounds.
void tr_ground_motion(const tr_source *src, const tread_world *others, tread_body_id body, tread_vec3 point, tread_vec3 *out_point,
                      tread_quat *out_turn);

// Where the ground body's surface velocity (a conveyor) takes `point` over dt seconds, and the rotation it turns by
// (identity, and the point itself, when it has none or is stale). Read before a move begins, as tr_ground_motion.
void tr_surface_motion(const tr_source *src, const tread_world *others, tread_body_id body, tread_vec3 point, float dt,
                       tread_vec3 *out_point, tread_quat *out_turn);

// How far any body's motion in the last world advance can have reached (metres, a bound; 0: nothing moved): the
// margin within which moving bodies may have hit the character. Read before a move begins, as tr_ground_motion.
float tr_pushers_reach(const tr_source *src);

// The batch update's bodies for characters: a character's shape as a kinematic body on `layer`, centred at
// `center` (its shape's centre); and putting one where a character is now, having been at `previous_center` when the
// frame began (what carries a character standing on it).
tread_body_def tr_character_body_def(const tread_character *ch, tread_vec3 center, uint32_t layer);
// Its velocity (m/s) is what a contact with it is measured against.
void tr_place_character_body(tread_world *others, tread_body_id body, tread_vec3 previous_center, tread_vec3 center, tread_quat rotation,
                             tread_vec3 velocity);
// After placing them: the broadphase tree built anew (bodies are handed to characters by rank, which changes as
// they move: a body may jump across the crowd from one frame to the next, which a refit serves badly).
void tr_settle_character_bodies(tread_world *others);

#ifndef NDEBUG
// The worst excess of a query over its phase's reach (metres) on this thread since the last call, then cleared.
float tr_reach_watch_take_excess(void);
#endif

// Debug drawing of what the phases decided (the queries draw themselves).
void tr_draw_ground(const tr_move_query *q, const tread_ground *ground, tread_vec3 feet);
void tr_draw_step(const tr_move_query *q, tread_vec3 from, tread_vec3 to, bool accepted);

#endif
