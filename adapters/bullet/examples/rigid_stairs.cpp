// SPDX-License-Identifier: MIT
// A Bullet btRigidBody capsule up the course's S1 stairs and down S3 with tread_rigid_step (the Source engine's
// contact-point stepping, include/tread/rigid_step.h) while Bullet's own solver does everything else: gravity, the
// floor, the risers. The level is built into the btDiscreteDynamicsWorld through the Bullet adapter, whose backend is
// the step's shape cast (its queries never meet the capsule: the capsule is not the adapter's body).
//
// Each frame: the capsule's horizontal velocity is set to the walk (its vertical velocity is Bullet's), Bullet steps,
// the contacts Bullet's manifolds hold for the capsule go to tread_rigid_step, and a step lifts (or lowers) the body
// and sets its velocity. The course's expectations are checked on the feet (../shared/course/SPEC.md); exit 1 when the
// capsule does not climb S1 or reaches its top later than the course's 1.0 s (the test rigid_stairs runs it), 0
// otherwise, with S3's results printed either way.
#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "tread_bullet.hpp"

namespace {

constexpr float kDt = 1.0f / 60.0f;
constexpr float kRadius = 0.3f, kHalf = 0.6f; // tread's default character capsule: 1.8 m tall
constexpr float kMass = 70.0f;                // kilograms
// Manifold points at most this far apart count as contacts (Bullet keeps points up to its breaking threshold, 2 cm,
// to warm-start its solver; a contact that far is not one the capsule leans on). Metres.
constexpr float kContactDistance = 0.01f;
constexpr int kMaxContacts = 64;

struct frame {
    float x, y;     // feet
    bool grounded;  // tread_rigid_step's on_ground
    float lift;     // what the step moved the body by this frame, metres
};

void add_box(tread_bullet_world *w, tread_vec3 min, tread_vec3 max) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(tread_v3_scale(tread_v3_sub(max, min), 0.5f));
    def.transform.p = tread_v3_scale(tread_v3_add(min, max), 0.5f);
    tread_body_id id;
    tread_bullet_add_body(w, &def, &id);
}

// The contacts of `body` in Bullet's manifolds after its step: the point on the other surface and the normal toward
// the body (Bullet's normalWorldOnB points from B to A).
int contacts_of(btDiscreteDynamicsWorld *world, const btCollisionObject *body, tread_rigid_contact *out) {
    int n = 0;
    btDispatcher *d = world->getDispatcher();
    for (int m = 0; m < d->getNumManifolds(); ++m) {
        const btPersistentManifold *pm = d->getManifoldByIndexInternal(m);
        bool is_a = pm->getBody0() == body;
        if (!is_a && pm->getBody1() != body) continue;
        for (int k = 0; k < pm->getNumContacts() && n < kMaxContacts; ++k) {
            const btManifoldPoint &p = pm->getContactPoint(k);
            if (p.getDistance() > kContactDistance) continue;
            btVector3 point = is_a ? p.getPositionWorldOnB() : p.getPositionWorldOnA();
            btVector3 normal = is_a ? p.m_normalWorldOnB : -p.m_normalWorldOnB;
            out[n++] = tread_rigid_contact{{(float)point.x(), (float)point.y(), (float)point.z()}, {(float)normal.x(), (float)normal.y(), (float)normal.z()}};
        }
    }
    return n;
}

// One course run: the S1 flight (S3 walks it down), the capsule's feet at `start`, walking at `walk` m/s along x.
std::vector<frame> run(tread_vec3 start, float walk, float seconds) {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
    world.setGravity(btVector3(0, -9.81f, 0));

    tread_bullet_world *level = nullptr;
    tread_bullet_world_wrap(&world, &level);
    add_box(level, tread_v3(-50, -1, -50), tread_v3(50, 0, 50));
    for (int i = 0; i < 10; ++i) add_box(level, tread_v3(1.0f + 0.3f * (float)i, 0, -1), tread_v3(20, 0.2f * (float)(i + 1), 1));

    // The capsule: upright (no rotation), frictionless (the walk sets its horizontal velocity), never asleep.
    btCapsuleShape capsule(kRadius, 2.0f * kHalf);
    btRigidBody::btRigidBodyConstructionInfo info(kMass, nullptr, &capsule, btVector3(0, 0, 0));
    info.m_friction = 0.0f;
    info.m_startWorldTransform.setOrigin(btVector3(start.x, start.y + kRadius + kHalf, start.z));
    btRigidBody body(info);
    body.setAngularFactor(0.0f);
    body.setActivationState(DISABLE_DEACTIVATION);
    world.addRigidBody(&body);

    tread_backend backend = tread_bullet_backend(level);
    tread_rigid_step_backend cast = {&backend, tread_query_filter_default()};
    tread_rigid_step_settings settings = tread_rigid_step_default();
    settings.cast = tread_rigid_step_cast_backend;
    settings.cast_context = &cast;
    tread_rigid_step_input input = tread_rigid_step_input_default();
    input.radius = kRadius;
    input.half_height = kHalf;
    input.dt = kDt;
    input.was_on_ground = true;
    tread_rigid_contact contacts[kMaxContacts];

    std::vector<frame> frames;
    int count = (int)std::lround(seconds / kDt);
    for (int f = 0; f < count; ++f) {
        btVector3 v = body.getLinearVelocity();
        body.setLinearVelocity(btVector3(walk, v.y(), 0));
        world.stepSimulation(kDt, 0);

        btTransform t = body.getWorldTransform();
        btVector3 c = t.getOrigin(), after = body.getLinearVelocity();
        input.contacts = contacts;
        input.contact_count = contacts_of(&world, &body, contacts);
        input.position = tread_v3((float)c.x(), (float)c.y(), (float)c.z());
        input.velocity = tread_v3((float)after.x(), (float)after.y(), (float)after.z());
        input.wish_velocity = tread_v3(walk, 0, 0);
        tread_rigid_step_result r;
        if (tread_rigid_step(&settings, &input, &r) != TREAD_OK) {
            std::fprintf(stderr, "tread_rigid_step: %s\n", tread_error_message());
            break;
        }
        if (r.stepped) {
            t.setOrigin(btVector3(r.position.x, r.position.y, r.position.z));
            body.setWorldTransform(t);
            body.setInterpolationWorldTransform(t);
            body.setLinearVelocity(btVector3(r.velocity.x, r.velocity.y, r.velocity.z));
        }
        input.was_on_ground = r.on_ground;
        btVector3 p = body.getWorldTransform().getOrigin();
        frames.push_back(frame{(float)p.x(), (float)p.y() - kRadius - kHalf, r.on_ground, r.lift});
    }
    world.removeRigidBody(&body);
    tread_bullet_world_destroy(level);
    return frames;
}

} // namespace

int main() {
    // S1 (SPEC.md): reach 1.95 m by 1.0 s, end on the top (y 2 +- 0.02, x > 4), never rise more than 0.4 m in a frame.
    std::vector<frame> s1 = run(tread_v3(0, 0, 0), 4.0f, 3.0f);
    int reached = -1, steps = 0;
    float max_rise = 0.0f;
    for (size_t i = 0; i < s1.size(); ++i) {
        if (reached < 0 && s1[i].y >= 1.95f) reached = (int)i;
        if (i > 0) max_rise = std::fmax(max_rise, s1[i].y - s1[i - 1].y);
        steps += s1[i].lift > 0.0f;
    }
    const frame &top = s1.back();
    // The test's pass: on the top, no frame rising more than a step, and by the course's 1.0 s (0.967 s since
    // tread_rigid_step steps on the riser ahead; 1.033 s when it waited for the riser's contact).
    bool climbs = std::fabs(top.y - 2.0f) <= 0.02f && top.x > 4.0f && max_rise <= 0.4f;
    bool in_time = reached >= 0 && (float)(reached + 1) * kDt <= 1.0f;
    std::printf("S1 stairs-up   %s: final feet (%.3f, %.4f), largest rise %.3f m a frame, %d step-ups; reached y 1.95 at %.3f s (%s by 1.0 s)\n",
                climbs ? "climbs" : "FAIL", (double)top.x, (double)top.y, (double)max_rise, steps, reached < 0 ? -1.0 : (double)(reached + 1) * kDt,
                in_time ? "pass" : "fail");

    // S3: grounded on >= 95% of the frames while descending, no grounded frame dropping more than 0.4 m, final y 0.
    std::vector<frame> s3 = run(tread_v3(6, 2, 0), -4.0f, 3.0f);
    int grounded = 0, counted = 0, downs = 0;
    float max_drop = 0.0f;
    for (size_t i = 6; i < s3.size() && s3[i - 1].y >= 0.01f; ++i, ++counted) {
        grounded += s3[i].grounded;
        if (s3[i].grounded) max_drop = std::fmax(max_drop, s3[i - 1].y - s3[i].y);
    }
    for (const frame &f : s3) downs += f.lift < 0.0f;
    const frame &bottom = s3.back();
    bool s3_pass = (float)grounded >= 0.95f * (float)counted && std::fabs(bottom.y) <= 0.02f && max_drop <= 0.4f;
    std::printf("S3 stairs-down %s: grounded %d of %d frames descending (%.1f%%), largest grounded drop %.3f m, final y %.4f, %d step-downs\n",
                s3_pass ? "pass" : "FAIL", grounded, counted, counted ? 100.0 * grounded / counted : 0.0, (double)max_drop, (double)bottom.y, downs);
    return climbs && in_time ? 0 : 1;
}
