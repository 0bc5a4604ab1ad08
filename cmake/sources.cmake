# The library's sources, listed explicitly (no GLOB): a file added to src/ is built only once it is named here,
# so adding or removing a module is a reviewed change. Paths are relative to the source tree's root.
set(TREAD_SOURCES
  src/core.c
  src/pool.c
  src/trig.c
  src/validate.c

  src/geometry/box.c
  src/geometry/closest.c
  src/geometry/features.c
  src/geometry/ray.c
  src/geometry/sweep.c

  src/world/backend.c
  src/world/body_access.c
  src/world/bvh.c
  src/world/defs.c
  src/world/heightfield.c
  src/world/mesh.c
  src/world/mesh_tree.c
  src/world/motion.c
  src/world/gather.c
  src/world/query.c
  src/world/shape.c
  src/world/shape_grids.c
  src/world/shift.c
  src/world/state.c
  src/world/surface.c
  src/world/voxels.c
  src/world/world.c

  src/character/batch.c
  src/character/batch_bodies.c
  src/character/body.c
  src/character/contacts.c
  src/character/ground.c
  src/character/move.c
  src/character/move_bodies.c
  src/character/move_draw.c
  src/character/move_filter.c
  src/character/move_query.c
  src/character/origin.c
  src/character/planes.c
  src/character/push.c
  src/character/rigid_step.c
  src/character/reach.c
  src/character/recover.c
  src/character/landing.c
  src/character/roll.c
  src/character/settings.c
  src/character/slide.c
  src/character/smoothing.c
  src/character/snap.c
  src/character/source.c
  src/character/state.c
  src/character/step_cast_down.c
  src/character/step_contact.c
  src/character/step_riser.c
  src/character/step_sweep.c
  src/character/strategies.c

  src/motor/motor.c
)
list(TRANSFORM TREAD_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/)
