// SPDX-License-Identifier: MIT
// The field tables of layout.h. One row per field a caller may touch; nested structs by reference to their table.
#include "layout.h"

#include <string.h>

#include "tread/tread.h"
#include "tread_scene.h"

// Table indices, for nested structs (TW_STRUCT rows name their table by it).
enum {
    S_VEC3, S_QUAT, S_TRANSFORM, S_BODY_ID, S_AABB, S_SETTINGS, S_GROUND, S_CHARACTER, S_CONTACT, S_IMPULSE, S_MOVE_RESULT,
    S_BODY_DEF, S_WORLD_DEF, S_SURFACE, S_MOTOR_SETTINGS, S_MOTOR_STATE, S_MOTOR_INPUT, S_BATCH_DEF, S_SMOOTHING,
    S_QUERY_SHAPE, S_QUERY_FILTER, S_RAY_HIT, S_SHAPE_HIT, S_DISTANCE, S_SCENE, S_SCENE_LAYER, S_SCENE_BODY, S_SCENE_CHARACTER,
    S_SCENE_INPUT, S_SCENE_CROWD, S_RUN_FRAME, S_RUN_FAILURE, S_CHECK_RESULT, S_COUNT
};

#define F(T, path, kind) {#path, (int)offsetof(T, path), kind, 0, 1}
#define SUB(T, path, sub) {#path, (int)offsetof(T, path), TW_STRUCT, sub, 1}
#define ARRAY(T, path, sub, n) {#path, (int)offsetof(T, path), TW_STRUCT, sub, n}
#define END {NULL, 0, TW_END, 0, 0}

static const tw_field vec3_fields[] = {F(tread_vec3, x, TW_F32), F(tread_vec3, y, TW_F32), F(tread_vec3, z, TW_F32), END};
static const tw_field quat_fields[] = {F(tread_quat, x, TW_F32), F(tread_quat, y, TW_F32), F(tread_quat, z, TW_F32), F(tread_quat, w, TW_F32), END};
static const tw_field transform_fields[] = {F(tread_transform, p, TW_VEC3), F(tread_transform, q, TW_QUAT), END};
static const tw_field body_id_fields[] = {F(tread_body_id, index, TW_U32), F(tread_body_id, generation, TW_U32), END};
static const tw_field aabb_fields[] = {F(tread_aabb, min, TW_VEC3), F(tread_aabb, max, TW_VEC3), END};

#define S tread_character_settings
static const tw_field settings_fields[] = {
    F(S, shape, TW_I32), F(S, radius, TW_F32), F(S, height, TW_F32), F(S, up, TW_VEC3), F(S, max_slope_degrees, TW_F32),
    F(S, max_step_height, TW_F32), F(S, min_step_depth, TW_F32), F(S, step_down_distance, TW_F32), F(S, max_snap_speed, TW_F32),
    F(S, ground_probe_distance, TW_F32), F(S, skin, TW_F32), F(S, max_slide_iterations, TW_I32), F(S, collide_mask, TW_U32),
    F(S, ground_mask, TW_U32), F(S, recovery_speed, TW_F32), F(S, mass, TW_F32), F(S, max_strength, TW_F32),
    F(S, keep_horizontal_speed, TW_BOOL), F(S, stairs_layer_mask, TW_U32), F(S, stairs_max_slope_degrees, TW_F32),
    F(S, step_strategy, TW_I32), F(S, contact_step.search_overshoot, TW_F32), F(S, riser.depth, TW_F32), F(S, riser.radius_scale, TW_F32),
    F(S, riser.speed_scale, TW_F32), F(S, riser.fall_scale, TW_F32), END};
#undef S

static const tw_field ground_fields[] = {F(tread_ground, state, TW_I32),     F(tread_ground, normal, TW_VEC3),   F(tread_ground, point, TW_VEC3),
                                         F(tread_ground, distance, TW_F32),  F(tread_ground, velocity, TW_VEC3), SUB(tread_ground, body, S_BODY_ID), F(tread_ground, character, TW_I32),
                                         END};

static const tw_field character_fields[] = {
    SUB(tread_character, settings, S_SETTINGS),       F(tread_character, position, TW_VEC3),      F(tread_character, velocity, TW_VEC3),
    SUB(tread_character, ground, S_GROUND),           F(tread_character, snap_suppress_time, TW_F32), F(tread_character, max_slope_cos, TW_F32),
    F(tread_character, stairs_slope_cos, TW_F32),     END};

static const tw_field contact_fields[] = {F(tread_contact, separation, TW_F32), F(tread_contact, point, TW_VEC3),
                                          F(tread_contact, normal, TW_VEC3),    F(tread_contact, surface_normal, TW_VEC3),
                                          SUB(tread_contact, body, S_BODY_ID),  F(tread_contact, character, TW_I32),
                                          F(tread_contact, feature, TW_U32), END};

static const tw_field impulse_fields[] = {SUB(tread_body_impulse, body, S_BODY_ID), F(tread_body_impulse, point, TW_VEC3),
                                          F(tread_body_impulse, direction, TW_VEC3), F(tread_body_impulse, magnitude, TW_F32), END};

#define R tread_move_result
static const tw_field move_result_fields[] = {
    F(R, position, TW_VEC3), F(R, velocity, TW_VEC3), SUB(R, ground, S_GROUND), F(R, step_up, TW_F32), F(R, snap_down, TW_F32),
    F(R, contact_count, TW_I32), F(R, moving_contact_count, TW_I32), F(R, impulse_count, TW_I32), F(R, contacts_overflow, TW_BOOL),
    F(R, impulses_overflow, TW_BOOL), F(R, crushed, TW_BOOL), F(R, started_on_ground, TW_BOOL), F(R, held_by_riser, TW_BOOL),
    F(R, carried, TW_VEC3), F(R, ground_turn, TW_QUAT), F(R, ground_yaw, TW_F32), F(R, pushed, TW_VEC3), SUB(R, crushed_by, S_BODY_ID),
    F(R, crushed_character, TW_I32), F(R, crushed_aside, TW_F32), F(R, unburied, TW_F32), END};
#undef R

#define B tread_body_def
static const tw_field body_def_fields[] = {
    F(B, type, TW_I32), F(B, shape.type, TW_I32), F(B, shape.radius, TW_F32), F(B, shape.half_height, TW_F32),
    F(B, shape.half_extents, TW_VEC3), F(B, shape.mesh.vertices, TW_PTR), F(B, shape.mesh.vertex_count, TW_I32),
    F(B, shape.mesh.indices, TW_PTR), F(B, shape.mesh.triangle_count, TW_I32), F(B, shape.heightfield.count_x, TW_I32),
    F(B, shape.heightfield.count_z, TW_I32), F(B, shape.heightfield.spacing_x, TW_F32), F(B, shape.heightfield.spacing_z, TW_F32),
    F(B, shape.heightfield.heights, TW_PTR), F(B, shape.heightfield.holes, TW_PTR), F(B, shape.voxels.count_x, TW_I32),
    F(B, shape.voxels.count_y, TW_I32), F(B, shape.voxels.count_z, TW_I32), F(B, shape.voxels.cell_size, TW_F32),
    F(B, shape.voxels.solid, TW_PTR), SUB(B, transform, S_TRANSFORM), F(B, linear_velocity, TW_VEC3), F(B, angular_velocity, TW_VEC3),
    SUB(B, surface, S_SURFACE), F(B, layer, TW_U32), F(B, flags, TW_U32), F(B, user_data, TW_PTR), END};
#undef B

static const tw_field world_def_fields[] = {F(tread_world_def, body_capacity, TW_I32), END};
static const tw_field surface_fields[] = {F(tread_surface_velocity, linear, TW_VEC3), F(tread_surface_velocity, angular, TW_VEC3),
                                          F(tread_surface_velocity, center, TW_VEC3), END};

#define M tread_motor_settings
static const tw_field motor_settings_fields[] = {
    F(M, max_speed, TW_F32), F(M, ground_acceleration, TW_F32), F(M, air_acceleration, TW_F32), F(M, friction, TW_F32),
    F(M, gravity, TW_F32), F(M, terminal_speed, TW_F32), F(M, jump_mode, TW_I32), F(M, jump_height, TW_F32), F(M, jump_strength, TW_F32),
    F(M, jump_drag, TW_F32), F(M, jump_cut, TW_F32), F(M, coyote_time, TW_F32), F(M, jump_buffer_time, TW_F32), F(M, max_air_jumps, TW_I32),
    F(M, wall_jump, TW_BOOL), F(M, jump_up_bias, TW_F32), F(M, jump_snap_suppress_time, TW_F32), F(M, crouch_height, TW_F32),
    F(M, crouch_speed_scale, TW_F32), F(M, leave_ground, TW_I32), END};
#undef M

#define T tread_motor_state
static const tw_field motor_state_fields[] = {
    F(T, velocity, TW_VEC3), F(T, ground_velocity, TW_VEC3), F(T, jump_velocity, TW_VEC3), F(T, move_velocity, TW_VEC3),
    F(T, time_since_grounded, TW_F32), F(T, jump_buffer, TW_F32), F(T, jump_phase, TW_I32), F(T, grounded, TW_BOOL), F(T, jump_held, TW_BOOL),
    F(T, rising, TW_BOOL), F(T, jump_cut_done, TW_BOOL), F(T, jumped, TW_BOOL), F(T, last_jump, TW_I32), END};
#undef T

static const tw_field motor_input_fields[] = {F(tread_motor_input, direction, TW_VEC3), F(tread_motor_input, speed, TW_F32),
                                              F(tread_motor_input, magnitude, TW_F32), F(tread_motor_input, jump, TW_BOOL),
                                              F(tread_motor_input, crouch, TW_BOOL), END};

static const tw_field batch_def_fields[] = {F(tread_batch_def, capacity, TW_I32), F(tread_batch_def, character_layer, TW_U32),
                                            F(tread_batch_def, separation_passes, TW_I32), F(tread_batch_def, threads, TW_I32),
                                            F(tread_batch_def, parallel_for, TW_PTR), F(tread_batch_def, parallel_context, TW_PTR), END};

static const tw_field smoothing_fields[] = {F(tread_step_smoothing, offset, TW_F32), F(tread_step_smoothing, decay, TW_F32), END};

static const tw_field query_shape_fields[] = {F(tread_query_shape, type, TW_I32), F(tread_query_shape, radius, TW_F32),
                                              F(tread_query_shape, half_height, TW_F32), F(tread_query_shape, up, TW_VEC3),
                                              F(tread_query_shape, half_extents, TW_VEC3), F(tread_query_shape, skin, TW_F32), END};

static const tw_field query_filter_fields[] = {F(tread_query_filter, layer_mask, TW_U32), SUB(tread_query_filter, ignore_body, S_BODY_ID),
                                               F(tread_query_filter, callback, TW_PTR), F(tread_query_filter, context, TW_PTR),
                                               F(tread_query_filter, include_sensors, TW_BOOL), END};

static const tw_field ray_hit_fields[] = {F(tread_ray_hit, hit, TW_BOOL), F(tread_ray_hit, fraction, TW_F32), F(tread_ray_hit, point, TW_VEC3),
                                          F(tread_ray_hit, normal, TW_VEC3), SUB(tread_ray_hit, body, S_BODY_ID), F(tread_ray_hit, character, TW_I32), F(tread_ray_hit, feature, TW_U32),
                                          END};

static const tw_field shape_hit_fields[] = {
    F(tread_shape_hit, hit, TW_BOOL),       F(tread_shape_hit, started_in_contact, TW_BOOL), F(tread_shape_hit, fraction, TW_F32),
    F(tread_shape_hit, penetration, TW_F32), F(tread_shape_hit, point, TW_VEC3),             F(tread_shape_hit, normal, TW_VEC3),
    F(tread_shape_hit, surface_normal, TW_VEC3), SUB(tread_shape_hit, body, S_BODY_ID),      F(tread_shape_hit, character, TW_I32),
    F(tread_shape_hit, feature, TW_U32), END};

static const tw_field distance_fields[] = {
    F(tread_distance_result, found, TW_BOOL),          F(tread_distance_result, distance, TW_F32), F(tread_distance_result, point_on_shape, TW_VEC3),
    F(tread_distance_result, point_on_world, TW_VEC3), F(tread_distance_result, normal, TW_VEC3),  SUB(tread_distance_result, body, S_BODY_ID), F(tread_distance_result, character, TW_I32),
    F(tread_distance_result, feature, TW_U32),         END};

// ---- the scene library's (tools/scene/tread_scene.h): what a loaded scene holds, what a run records ----------------

static const tw_field scene_fields[] = {
    F(scene, path, TW_TEXT), F(scene, name, TW_TEXT), F(scene, description, TW_TEXT), F(scene, dt, TW_F32), F(scene, duration, TW_F32),
    F(scene, gravity, TW_VEC3), F(scene, up, TW_VEC3), F(scene, layers, TW_PTR), F(scene, layer_count, TW_I32), F(scene, bodies, TW_PTR),
    F(scene, body_count, TW_I32), F(scene, characters, TW_PTR), F(scene, character_count, TW_I32), F(scene, crowds, TW_PTR),
    F(scene, crowd_count, TW_I32), F(scene, slow, TW_BOOL), F(scene, characters_collide, TW_BOOL), F(scene, check_count, TW_I32),
    F(scene, pending_penetration, TW_TEXT), END};
static const tw_field scene_layer_fields[] = {F(scene_layer, name, TW_TEXT), F(scene_layer, walkable_degrees, TW_F32), END};
static const tw_field scene_body_fields[] = {F(scene_body, name, TW_TEXT), SUB(scene_body, def, S_BODY_DEF), F(scene_body, path.keys, TW_PTR),
                                             F(scene_body, dynamic.mass, TW_F32), F(scene_body, dynamic.friction, TW_F32),
                                             F(scene_body, dynamic.gravity, TW_BOOL), END};
static const tw_field scene_character_fields[] = {
    F(scene_character, name, TW_TEXT), SUB(scene_character, settings, S_SETTINGS), F(scene_character, start, TW_VEC3),
    F(scene_character, inputs, TW_PTR), F(scene_character, input_count, TW_I32), F(scene_character, has_motor, TW_BOOL),
    SUB(scene_character, motor, S_MOTOR_SETTINGS), F(scene_character, crowd, TW_I32), END};
static const tw_field scene_input_fields[] = {F(scene_input, t, TW_F32), F(scene_input, kind, TW_I32), F(scene_input, direction, TW_VEC3),
                                              F(scene_input, target, TW_VEC3), F(scene_input, speed, TW_F32), F(scene_input, jump, TW_I32),
                                              F(scene_input, crouch, TW_I32), END};
static const tw_field scene_crowd_fields[] = {F(scene_crowd, name, TW_TEXT), F(scene_crowd, first, TW_I32), F(scene_crowd, count, TW_I32), END};
static const tw_field run_frame_fields[] = {F(run_frame, feet, TW_VEC3), F(run_frame, velocity, TW_VEC3), F(run_frame, ground, TW_I32),
                                            F(run_frame, stepped, TW_F32), F(run_frame, camera, TW_F32), F(run_frame, penetration, TW_F32),
                                            F(run_frame, overlap, TW_F32), F(run_frame, unburied, TW_F32), F(run_frame, finite, TW_BOOL),
                                            F(run_frame, crushed, TW_BOOL), END};
static const tw_field run_failure_fields[] = {F(run_failure, failed, TW_BOOL), F(run_failure, code, TW_I32), F(run_failure, call, TW_PTR),
                                              F(run_failure, character, TW_I32), F(run_failure, frame, TW_I32), F(run_failure, t, TW_F32),
                                              F(run_failure, message, TW_TEXT), END};
static const tw_field check_result_fields[] = {F(check_result, name, TW_TEXT), F(check_result, passed, TW_BOOL), F(check_result, value, TW_F64),
                                               F(check_result, value_text, TW_TEXT), F(check_result, detail, TW_TEXT), F(check_result, key, TW_BOOL),
                                               F(check_result, pending, TW_BOOL), END};

const tw_struct tw_structs[] = {
    [S_VEC3] = {"tread_vec3", sizeof(tread_vec3), vec3_fields},
    [S_QUAT] = {"tread_quat", sizeof(tread_quat), quat_fields},
    [S_TRANSFORM] = {"tread_transform", sizeof(tread_transform), transform_fields},
    [S_BODY_ID] = {"tread_body_id", sizeof(tread_body_id), body_id_fields},
    [S_AABB] = {"tread_aabb", sizeof(tread_aabb), aabb_fields},
    [S_SETTINGS] = {"tread_character_settings", sizeof(tread_character_settings), settings_fields},
    [S_GROUND] = {"tread_ground", sizeof(tread_ground), ground_fields},
    [S_CHARACTER] = {"tread_character", sizeof(tread_character), character_fields},
    [S_CONTACT] = {"tread_contact", sizeof(tread_contact), contact_fields},
    [S_IMPULSE] = {"tread_body_impulse", sizeof(tread_body_impulse), impulse_fields},
    [S_MOVE_RESULT] = {"tread_move_result", sizeof(tread_move_result), move_result_fields},
    [S_BODY_DEF] = {"tread_body_def", sizeof(tread_body_def), body_def_fields},
    [S_WORLD_DEF] = {"tread_world_def", sizeof(tread_world_def), world_def_fields},
    [S_SURFACE] = {"tread_surface_velocity", sizeof(tread_surface_velocity), surface_fields},
    [S_MOTOR_SETTINGS] = {"tread_motor_settings", sizeof(tread_motor_settings), motor_settings_fields},
    [S_MOTOR_STATE] = {"tread_motor_state", sizeof(tread_motor_state), motor_state_fields},
    [S_MOTOR_INPUT] = {"tread_motor_input", sizeof(tread_motor_input), motor_input_fields},
    [S_BATCH_DEF] = {"tread_batch_def", sizeof(tread_batch_def), batch_def_fields},
    [S_SMOOTHING] = {"tread_step_smoothing", sizeof(tread_step_smoothing), smoothing_fields},
    [S_QUERY_SHAPE] = {"tread_query_shape", sizeof(tread_query_shape), query_shape_fields},
    [S_QUERY_FILTER] = {"tread_query_filter", sizeof(tread_query_filter), query_filter_fields},
    [S_RAY_HIT] = {"tread_ray_hit", sizeof(tread_ray_hit), ray_hit_fields},
    [S_SHAPE_HIT] = {"tread_shape_hit", sizeof(tread_shape_hit), shape_hit_fields},
    [S_DISTANCE] = {"tread_distance_result", sizeof(tread_distance_result), distance_fields},
    [S_SCENE] = {"scene", sizeof(scene), scene_fields},
    [S_SCENE_LAYER] = {"scene_layer", sizeof(scene_layer), scene_layer_fields},
    [S_SCENE_BODY] = {"scene_body", sizeof(scene_body), scene_body_fields},
    [S_SCENE_CHARACTER] = {"scene_character", sizeof(scene_character), scene_character_fields},
    [S_SCENE_INPUT] = {"scene_input", sizeof(scene_input), scene_input_fields},
    [S_SCENE_CROWD] = {"scene_crowd", sizeof(scene_crowd), scene_crowd_fields},
    [S_RUN_FRAME] = {"run_frame", sizeof(run_frame), run_frame_fields},
    [S_RUN_FAILURE] = {"run_failure", sizeof(run_failure), run_failure_fields},
    [S_CHECK_RESULT] = {"check_result", sizeof(check_result), check_result_fields},
};
const int tw_struct_count = S_COUNT;

const tw_struct *tw_struct_named(const char *name) {
    for (int i = 0; i < S_COUNT; ++i)
        if (strcmp(tw_structs[i].name, name) == 0) return &tw_structs[i];
    return NULL;
}
