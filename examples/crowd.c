// SPDX-License-Identifier: MIT
/* A crowd through the batch update, with a contact listener.
 *
 * Sixteen capsules start on a 4 x 4 grid and all walk toward one rally point for four seconds. tread_batch_move
 * moves them together, each an obstacle to the others (they push by mass and part, nobody walks through anybody),
 * and a contact listener hears who meets whom: other characters (event->character >= 0), the walls, and a sensor
 * (TREAD_BODY_SENSOR: never blocks, reported on entering and leaving) lying round the rally point.
 *
 * Exits non-zero unless every character ends inside the sensor, characters met each other, and no two overlap by
 * more than 2 cm. */
#include <stdio.h>
#include <tread/tread.h>

#define COUNT 16
#define DT (1.0f / 60.0f)

typedef struct crowd_log {
    int met_characters; /* added events naming another character */
    int entered_sensor; /* added events for the sensor */
    int left_sensor;    /* removed events for the sensor */
    tread_body_id sensor;
} crowd_log;

/* Called after the batch, on this thread, character by character in index order. */
static void on_added(const tread_character *character, int index, const tread_contact_event *contact, void *context) {
    (void)character, (void)index;
    crowd_log *log = context;
    if (contact->character >= 0) log->met_characters++;
    else if (tread_body_id_equal(contact->body, log->sensor)) log->entered_sensor++;
}

static void on_removed(const tread_character *character, int index, const tread_contact_event *contact, void *context) {
    (void)character, (void)index;
    crowd_log *log = context;
    if (tread_body_id_equal(contact->body, log->sensor)) log->left_sensor++;
}

static tread_body_id add_box(tread_world *world, tread_vec3 center, tread_vec3 half_extents, uint32_t flags) {
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_box(half_extents);
    def.transform.p = center;
    def.flags = flags;
    tread_body_id id = tread_body_id_null();
    if (tread_world_add_body(world, &def, &id) != TREAD_OK) fprintf(stderr, "add_body: %s\n", tread_error_message());
    return id;
}

int main(void) {
    tread_world *world = NULL;
    if (tread_world_create(NULL, &world) != TREAD_OK) return 1;
    add_box(world, tread_v3(0, -0.5f, 0), tread_v3(20, 0.5f, 20), 0);                 /* floor, top at y = 0 */
    add_box(world, tread_v3(0, 1, -6), tread_v3(6, 1, 0.2f), 0);                      /* a wall behind the crowd */
    crowd_log log = {0, 0, 0, tread_body_id_null()};
    log.sensor = add_box(world, tread_v3(0, 1, 6), tread_v3(3, 1, 3), TREAD_BODY_SENSOR); /* the rally area */
    const tread_vec3 rally = tread_v3(0, 0, 6);

    /* The characters: plain structs the game owns, in one array (a batch keeps each index's contact memory). */
    tread_character_settings settings = tread_character_settings_default();
    tread_character crowd[COUNT];
    for (int i = 0; i < COUNT; ++i) {
        tread_vec3 spawn = tread_v3(-2.25f + 1.5f * (float)(i % 4), 0, -4.5f + 1.5f * (float)(i / 4));
        if (tread_character_init(&crowd[i], &settings, spawn) != TREAD_OK) return 1;
    }

    tread_batch_def batch_def = tread_batch_def_default();
    batch_def.threads = 2; /* the built-in pool; the results are the same on any number of threads */
    tread_batch *batch = NULL;
    if (tread_batch_create(&batch_def, &batch) != TREAD_OK) return 1;
    tread_contact_listener listener = {0};
    listener.added = on_added;
    listener.removed = on_removed;
    listener.context = &log;
    tread_move_options options = tread_move_options_default();
    options.listener = &listener;

    tread_move_result results[COUNT];
    for (int frame = 0; frame < 240; ++frame) {
        tread_vec3 velocities[COUNT];
        for (int i = 0; i < COUNT; ++i) {
            /* walk at up to 3 m/s toward the rally point, slowing within a metre of it; gravity off the ground */
            tread_vec3 to = tread_v3_sub(rally, crowd[i].position);
            to.y = 0;
            float distance = tread_v3_length(to);
            float speed = distance > 1.0f ? 3.0f : 3.0f * distance;
            tread_vec3 v = distance > 1e-3f ? tread_v3_scale(to, speed / distance) : tread_v3_zero();
            v.y = crowd[i].ground.state == TREAD_GROUND_ON_GROUND ? 0.0f : crowd[i].velocity.y - 9.81f * DT;
            velocities[i] = v;
        }
        if (tread_batch_move_with(batch, world, crowd, velocities, COUNT, DT, &options, results) != TREAD_OK) {
            tread_batch_report report;
            tread_batch_get_report(batch, &report);
            fprintf(stderr, "batch failed on character %d: %s\n", report.failed_character, tread_error_message());
            return 1;
        }
    }

    /* The worst overlap between two characters: capsules of the same radius overlap by 2r - the distance between
       their core segments, which are vertical and equally tall here, so the horizontal distance of their feet. */
    float worst = 0.0f;
    int inside = 0;
    for (int i = 0; i < COUNT; ++i) {
        tread_vec3 d = tread_v3_sub(crowd[i].position, rally);
        inside += d.x > -3.0f && d.x < 3.0f && d.z > -3.0f && d.z < 3.0f;
        for (int j = i + 1; j < COUNT; ++j) {
            tread_vec3 ij = tread_v3_sub(crowd[i].position, crowd[j].position);
            ij.y = 0;
            float overlap = 2.0f * settings.radius - tread_v3_length(ij);
            if (overlap > worst) worst = overlap;
        }
    }
    printf("crowd: %d of %d in the rally area (%d entered it, %d left it again), %d character meetings heard, "
           "worst overlap %.4f m\n", inside, COUNT, log.entered_sensor, log.left_sensor, log.met_characters, (double)worst);
    tread_batch_destroy(batch);
    tread_world_destroy(world);
    return inside == COUNT && log.entered_sensor >= COUNT && log.met_characters > 0 && worst < 0.02f ? 0 : 1;
}
