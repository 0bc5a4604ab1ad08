// Collide and slide: cast the shape (grown by the skin) along the motion, stop at the first surface, let
// the plane solver turn the rest of the motion along everything touched so far, repeat.
#include "character_internal.h"

void tr_record_contact(tread_move_result *res, const tread_shape_hit *hit) {
    if (!res) return;
    for (int i = 0; i < res->contact_count; ++i)
        if (tread_body_id_equal(res->contacts[i].body, hit->body) && res->contacts[i].feature == hit->feature) return;
    if (res->contact_count == TREAD_MAX_MOVE_CONTACTS) {
        res->contacts_overflow = true;
        return;
    }
    tread_contact *c = &res->contacts[res->contact_count++];
    c->separation = -hit->penetration;
    c->point = hit->point;
    c->normal = hit->normal;
    c->surface_normal = hit->surface_normal;
    c->body = hit->body;
    c->feature = hit->feature;
}

// A vertical wall through the surface: its normal with the up part removed (zero if it faces straight up/down).
static tread_vec3 as_wall(tread_vec3 n, tread_vec3 up) { return tread_v3_normalize(tread_v3_reject(n, up)); }

static void add_plane(tr_slide_result *out, tread_vec3 n) {
    if (tread_v3_length_sq(n) == 0.0f) return;
    for (int i = 0; i < out->plane_count; ++i)
        if (tread_v3_dot(out->planes[i], n) > TR_SAME_PLANE_COS) return;
    if (out->plane_count < TR_MAX_PLANES) out->planes[out->plane_count++] = n;
}

// How a grounded character treats a surface it runs into. A low surface with a walkable contact normal (a
// seam between floor pieces, a lip lower than both the max step and the capsule's rounding) is ridden
// over like ground; anything else is a wall for climbing, so no height is ever gained by sliding up an
// edge or a steep face. Climbing is the stairs phase's job, and it enforces the max step.
static bool ridable(const tread_world *w, const tread_character *ch, tread_vec3 feet, const tread_shape_hit *hit) {
    tread_vec3 up = ch->settings.up;
    if (!tr_is_walkable_on(w, ch, hit->body, hit->normal)) return false;
    float height = tread_v3_dot(tread_v3_sub(hit->point, feet), up);
    return height <= ch->settings.max_step_height;
}

void tr_slide(const tread_world *w, const tread_character *ch, tread_vec3 feet, tread_vec3 motion, tr_slide_mode mode,
              tread_move_result *res, tr_slide_result *out) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_character_query_shape(ch, s->skin);
    tread_query_filter filter = tread_query_filter_default();
    filter.layer_mask = s->collide_mask;
    out->plane_count = 0;
    out->blocked = false;
    tread_vec3 original = motion;
    for (int it = 0; it < s->max_slide_iterations && tread_v3_length(motion) > TR_MIN_MOVE; ++it) {
        tread_shape_hit hit;
        tread_world_cast_shape(w, &shape, tr_character_center(ch, feet), motion, &filter, &hit);
        if (!hit.hit) {
            feet = tread_v3_add(feet, motion);
            motion = tread_v3_zero();
            break;
        }
        feet = tread_v3_mad(feet, hit.fraction, motion);
        tr_record_contact(res, &hit);
        tread_vec3 rest = tread_v3_scale(motion, 1.0f - hit.fraction);
        tread_vec3 n = hit.normal;
        if (mode == TR_SLIDE_STEP_FORWARD) {
            n = as_wall(n, s->up);
        } else if (mode == TR_SLIDE_GROUNDED) {
            if (ridable(w, ch, feet, &hit)) {
                // Follow the new ground at the same speed (constant speed over seams and onto slopes).
                tread_vec3 aligned = tr_align_to_ground(rest, s->up, n, s->keep_horizontal_speed);
                add_plane(out, n);
                motion = tr_solve_planes(aligned, out->planes, out->plane_count);
                continue;
            }
            if (tread_v3_dot(n, s->up) > 0.0f) n = as_wall(n, s->up);
            if (!out->blocked) {
                out->blocked = true;
                out->blocked_feet = feet;
                out->blocked_motion = tread_v3_reject(rest, s->up);
            }
        }
        add_plane(out, n);
        motion = tr_solve_planes(rest, out->planes, out->plane_count);
        // Never turn back against the intended motion: that is what makes corners jitter.
        if (tread_v3_dot(motion, original) <= 0.0f) {
            motion = tread_v3_zero();
            break;
        }
    }
    out->feet = feet;
}
