// Crouching: change the capsule's height with the feet fixed. Only the public world queries are used: the
// taller shape is tested where it would stand before the height changes.
#include "motor_internal.h"

tread_result tread_character_set_height(const tread_world *world, tread_character *ch, float height, bool *out_changed) {
    if (out_changed) *out_changed = false;
    if (!world) return tr_error(TREAD_ERR_NULL_ARGUMENT, "world is NULL");
    if (!ch) return tr_error(TREAD_ERR_NULL_ARGUMENT, "character is NULL");
    if (!isfinite(height)) return tr_error(TREAD_ERR_NOT_FINITE, "height is %g; expected a finite number", (double)height);
    tread_character_settings *s = &ch->settings;
    if (s->shape != TREAD_QUERY_CAPSULE) return TREAD_OK; // a sphere has no height to change
    if (height < 2.0f * s->radius || height > 1000.0f)
        return tr_error(TREAD_ERR_INVALID_ARGUMENT, "height is %g m; expected at least 2 * radius (%g) and at most 1000", (double)height,
                        (double)(2.0f * s->radius));
    if (height == s->height) return TREAD_OK;

    if (height > s->height) {
        // Growing: nothing may come nearer to the taller shape than it already is to the current one (or than
        // the skin the controller keeps), so a character under a low ceiling stays crouched, while one resting
        // on its floor (at the skin) may stand.
        tread_query_filter filter = tread_query_filter_default();
        filter.layer_mask = s->collide_mask;
        tread_query_shape now = tread_character_shape(ch);
        tread_distance_result d;
        tread_result r = tread_world_closest(world, &now, tread_character_center(ch), TR_MOTOR_FIT_PROBE, &filter, &d);
        if (r != TREAD_OK) return r;
        float allowed = tr_minf(d.found ? d.distance : TR_MOTOR_FIT_PROBE, s->skin) - TR_MOTOR_FIT_SLACK;
        tread_query_shape tall = tread_query_capsule(0.5f * height - s->radius, s->radius, s->up);
        tread_vec3 center = tread_v3_mad(ch->position, 0.5f * height, s->up);
        r = tread_world_closest(world, &tall, center, TR_MOTOR_FIT_PROBE, &filter, &d);
        if (r != TREAD_OK) return r;
        if (d.found && d.distance < allowed) return TREAD_OK; // does not fit: stay as is
    }
    s->height = height;
    if (out_changed) *out_changed = true;
    return TREAD_OK;
}
