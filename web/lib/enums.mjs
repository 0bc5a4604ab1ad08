// SPDX-License-Identifier: MIT
// tread's enums by name, in the order of their C declarations (include/tread/types.h, motor.h). Data objects take
// either the name or the number; reads give the name, as scene files and traces write them.

export const RESULT = Object.freeze(['TREAD_OK', 'TREAD_ERR_NULL_ARGUMENT', 'TREAD_ERR_NOT_FINITE', 'TREAD_ERR_INVALID_SHAPE',
  'TREAD_ERR_INVALID_MESH', 'TREAD_ERR_INVALID_ARGUMENT', 'TREAD_ERR_INVALID_ID', 'TREAD_ERR_OUT_OF_MEMORY', 'TREAD_ERR_BLOCKED',
  'TREAD_ERR_UNINITIALIZED']);
export const SHAPE_TYPE = Object.freeze(['sphere', 'capsule', 'box', 'mesh', 'heightfield', 'voxels']); // tread_shape_type
export const BODY_TYPE = Object.freeze(['static', 'kinematic', 'dynamic']);                          // tread_body_type
export const QUERY_SHAPE = Object.freeze(['sphere', 'capsule', 'box']);                               // tread_query_shape_type
export const GROUND_STATE = Object.freeze(['on_ground', 'on_steep', 'not_supported', 'in_air']);      // tread_ground_state
export const STEP_STRATEGY = Object.freeze(['sweep', 'contact', 'cast_down', 'riser']);               // tread_step_strategy
export const JUMP_MODE = Object.freeze(['height', 'strength_drag']);                                  // tread_jump_mode
export const JUMP_KIND = Object.freeze(['none', 'ground', 'air', 'wall']);                            // tread_jump_kind
export const LEAVE_GROUND = Object.freeze(['add_velocity', 'add_upward_velocity', 'do_nothing']);     // tread_leave_ground
export const BODY_FLAGS = Object.freeze({ one_way: 1, sensor: 2 });                                  // tread_body_flags
export const INPUT_KIND = Object.freeze(['idle', 'direction', 'toward']);                              // scene_input_kind (tools/scene)

// The enum's number for a name or a number; throws on anything else.
export function enumValue(names, value, what) {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length) return value;
  const i = names.indexOf(value);
  if (i < 0) throw new Error(`tread: ${what}: unknown value ${JSON.stringify(value)} (expected one of ${names.join(', ')})`);
  return i;
}

// Which fields of which structs are enums (named on read, accepted by name on write).
export const ENUM_FIELDS = Object.freeze({
  tread_character_settings: { shape: QUERY_SHAPE, step_strategy: STEP_STRATEGY },
  tread_motor_settings: { jump_mode: JUMP_MODE, leave_ground: LEAVE_GROUND },
  tread_motor_state: { last_jump: JUMP_KIND },
  tread_ground: { state: GROUND_STATE },
  tread_query_shape: { type: QUERY_SHAPE },
  scene_input: { kind: INPUT_KIND },
  run_frame: { ground: GROUND_STATE },
});
