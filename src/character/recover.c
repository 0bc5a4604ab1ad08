// SPDX-License-Identifier: MIT
// Penetration recovery: a character that starts inside geometry, or is pushed into it, moves out along the
// least-penetration directions at the recovery speed. Deeply buried (contacts that cancel out, or more than
// the buffer holds) it rises along up (Staxel's answer to starting inside the ground).
#include "character_internal.h"

#define TR_RECOVER_CONTACTS 16
#define TR_RECOVER_ITERATIONS 4

// The convex bodies the character is inside of: the push leaves them, so the slide out ignores them. Deep in a box,
// the skin-grown shape's separating axis can point the other way from the bare shape's push (down, not up) and
// held the push at once: a box character spawned 1 m inside a crate stayed there. Meshes, heightfields and voxels
// stay in: leaving one piece must not enter the next.
typedef struct inside_of {
    tread_body_id bodies[TR_RECOVER_CONTACTS];
    int count;
} inside_of;

static bool not_inside(tread_body_id body, uint32_t layer, void *user_data, void *context) {
    (void)layer, (void)user_data;
    const inside_of *in = (const inside_of *)context;
    for (int i = 0; i < in->count; ++i)
        if (tread_body_id_equal(in->bodies[i], body)) return false;
    return true;
}

tread_result tr_recover(const tr_move_query *q, const tread_character *ch, tread_vec3 feet, float dt, tread_vec3 *out_push) {
    const tread_character_settings *s = &ch->settings;
    tread_query_shape shape = tr_body_shape(ch, 0.0f);
    tread_query_filter filter = tr_collide_filter(ch);
    tread_contact contacts[TR_RECOVER_CONTACTS];
    int count = 0;
    bool overflow = false;
    *out_push = tread_v3_zero();
    tread_result r = tr_query_contacts(q, &shape, tr_center(ch, feet), 0.0f, &filter, contacts, TR_RECOVER_CONTACTS, &count, &overflow);
    if (r != TREAD_OK) return r;
    float deepest = 0.0f;
    for (int i = 0; i < count; ++i) deepest = tr_maxf(deepest, -contacts[i].separation);
    if (deepest <= TR_PENETRATION_SLOP) return TREAD_OK;

    // Relax the push against every penetrating contact in turn (contacts come sorted: deterministic).
    tread_vec3 push = tread_v3_zero();
    for (int it = 0; it < TR_RECOVER_ITERATIONS; ++it) {
        for (int i = 0; i < count; ++i) {
            float missing = -contacts[i].separation - tread_v3_dot(push, contacts[i].normal);
            if (missing > 0.0f) push = tread_v3_mad(push, missing, contacts[i].normal);
        }
    }
    float limit = s->recovery_speed * dt;
    // Pushes that cancel (buried between opposite faces) or too many contacts: rise out instead.
    if (overflow || tread_v3_length(push) < 0.5f * deepest) push = tread_v3_scale(s->up, deepest);
    float len = tread_v3_length(push);
    if (len > limit) push = tread_v3_scale(push, limit / len);
    // Out of one body, never into another: the push slides as a move does, along anything it was not already
    // inside of (casts leave what they start in; convex bodies it is inside of are left out, above). Pushed out of
    // a sphere straight into a mesh floor, the soak's character ended 3.8 cm below the floor's top.
    inside_of in = {.count = 0};
    for (int i = 0; i < count; ++i) {
        bool convex = false;
        if (-contacts[i].separation <= TR_PENETRATION_SLOP) continue;
        if ((r = tr_query_body_is_convex(q, contacts[i].body, &convex)) != TREAD_OK) return r;
        if (convex) in.bodies[in.count++] = contacts[i].body;
    }
    tread_query_filter leaving = filter;
    leaving.callback = not_inside;
    leaving.context = &in;
    tr_slide_result slid;
    if ((r = tr_slide_filtered(q, ch, feet, push, TR_SLIDE_AIR, &leaving, NULL, &slid)) != TREAD_OK) return r;
    *out_push = tread_v3_sub(slid.feet, feet);
    return TREAD_OK;
}
