// SPDX-License-Identifier: MIT
// The batch update's bodies for characters (batch_bodies.h).
#include "batch_bodies.h"

#include "../world/world_query.h"

tread_body_def tr_character_body_def(const tread_character *ch, tread_vec3 center, uint32_t layer) {
    const tread_character_settings *s = &ch->settings;
    tread_body_def def = tread_body_def_default();
    if (s->shape == TREAD_QUERY_SPHERE) def.shape = tread_shape_sphere(s->radius);
    else if (s->shape == TREAD_QUERY_BOX) def.shape = tread_shape_box(tread_v3(s->radius, 0.5f * s->height, s->radius));
    else def.shape = tread_shape_capsule(0.5f * s->height - s->radius, s->radius);
    def.transform.p = center;
    def.transform.q = tr_upright_rotation(s->up);
    def.type = TREAD_BODY_KINEMATIC;
    def.layer = layer;
    return def;
}

void tr_settle_character_bodies(tread_world *others) { tr_world_rebuild_tree(others); }

void tr_place_character_body(tread_world *others, tread_body_id body, tread_vec3 previous_center, tread_vec3 center, tread_quat rotation,
                             tread_vec3 velocity) {
    tread_transform before = {previous_center, rotation}, now = {center, rotation};
    tr_world_place_body(others, body, before, now);
    tread_body_set_velocity(others, body, velocity, tread_v3_zero());
}
