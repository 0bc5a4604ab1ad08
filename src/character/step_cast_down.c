// Stepping by casting down (seed 002): cast the shape from the move's target raised by max step straight down
// to the target; free space above the obstacle means a step, so lift the target by what the cast left over;
// otherwise keep the slide (which already followed the surface). tread adds what the seed leaves out and the
// shared ground code knows: the landing must be walkable ground no higher than max step at the tread, and the
// lifted path must be free (no stepping through a thin wall above the step).
#include "character_internal.h"

bool tr_step_cast_down(const tread_world *w, const tread_character *ch, tread_move_result *res, tread_vec3 *out_feet,
                       float *out_rise) {
    const tread_character_settings *s = &ch->settings;
    const tread_vec3 up = s->up;
    tread_vec3 motion = res->blocked_motion;
    if (s->max_step_height <= 0.0f || tread_v3_length(motion) <= TR_MIN_MOVE) return false;
    tread_vec3 start = tread_v3_add(res->blocked_position, motion);
    tread_vec3 raised = tread_v3_mad(start, s->max_step_height, up);
    // The seed's cast starts at the raised target and reports fraction 0 when that start is inside something
    // (a ceiling, a wall): no free space, no step. tread's casts skip what they start inside of and leave, so
    // ask directly.
    if (!tr_fits(w, ch, raised, s->skin)) return false;
    tread_shape_hit hits[TR_GROUND_HITS];
    int count = tr_probe_down(w, ch, raised, s->max_step_height, hits, TR_GROUND_HITS);
    // No hit: nothing to step onto. A hit at 0: no free space above the obstacle (a wall, a ceiling).
    if (count == 0 || hits[0].fraction == 0.0f) return false;
    int support = tr_pick_support(w, ch, hits, count, s->max_step_height);
    if (support < 0) return false;
    float rise = s->max_step_height * (1.0f - hits[0].fraction);
    if (rise <= TR_MIN_STEP_RISE) return false;
    // Max step holds at the tread for every strategy: a capsule's round bottom lands perched on the corner of a
    // step taller than max step with its feet lower than the tread.
    if (tread_v3_dot(tread_v3_sub(hits[support].point, res->blocked_position), up) > s->max_step_height + TR_STEP_HEIGHT_SLACK) return false;
    // The seed teleports; tread checks the lifted path: straight up at the start, then across (with the bare
    // shape: ending in touch with the tread is the landing, not an obstacle).
    tread_query_shape shape = tr_character_query_shape(ch, 0.0f);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->collide_mask;
    tread_shape_hit blocked;
    tread_world_cast_shape(w, &shape, tr_character_center(ch, res->blocked_position), tread_v3_scale(up, rise), &filter, &blocked);
    if (blocked.hit) return false;
    tread_world_cast_shape(w, &shape, tr_character_center(ch, tread_v3_mad(res->blocked_position, rise, up)), motion, &filter, &blocked);
    if (blocked.hit) return false;
    *out_feet = tread_v3_mad(start, rise, up);
    *out_rise = rise;
    return true;
}
