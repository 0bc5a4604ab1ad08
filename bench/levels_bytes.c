// SPDX-License-Identifier: MIT
// tread_bench_levels_bytes: what a real level's triangles cost as a tread mesh (bench/levels.sh's memory rows). Each
// map's world geometry (tools/levels: its brushes' solid faces and its patches, as `tread walk` loads it) is added
// as one static mesh body, and the bytes the library asks for while it is added (a counting allocator, without
// malloc's own overhead) are divided by the triangles.
//
//   tread_bench_levels_bytes [MAP ...]     default: oa_dm1 czest1dm islandctf, from LEVEL_DEFAULT_PK3
#include <stdio.h>

#include "common/bench_util.h"
#include "level.h"

static bool measure(const char *map) {
    level lv;
    char err[512];
    if (!level_load(LEVEL_DEFAULT_PK3, map, &lv, err, sizeof err)) {
        fprintf(stderr, "tread_bench_levels_bytes: %s\n", err);
        return false;
    }
    tread_world *w = NULL;
    bool ok = tread_world_create(NULL, &w) == TREAD_OK;
    size_t before = bench_live_bytes();
    tread_body_def def = tread_body_def_default();
    def.shape = tread_shape_mesh((const tread_vec3 *)lv.vertices, lv.vertex_count, lv.indices, lv.triangle_count);
    tread_body_id id;
    ok = ok && tread_world_add_body(w, &def, &id) == TREAD_OK;
    if (ok) {
        char name[96];
        snprintf(name, sizeof name, "levels-%s", map);
        double bytes = (double)(bench_live_bytes() - before);
        bench_csv(name, "triangles", lv.triangle_count, "count");
        bench_csv(name, "vertices_given", lv.vertex_count, "count");
        bench_csv(name, "mesh_bytes", bytes, "bytes");
        bench_csv(name, "mesh_bytes_per_triangle", bytes / lv.triangle_count, "bytes/triangle");
    } else {
        fprintf(stderr, "tread_bench_levels_bytes: %s: %s\n", map, tread_error_message());
    }
    tread_world_destroy(w);
    level_free(&lv);
    return ok;
}

int main(int argc, char **argv) {
    static const char *maps[] = {"oa_dm1", "czest1dm", "islandctf"};
    bench_count_allocations();
    bool ok = true;
    if (argc > 1)
        for (int i = 1; i < argc; i++) ok = measure(argv[i]) && ok;
    else
        for (int i = 0; i < 3; i++) ok = measure(maps[i]) && ok;
    bench_csv_end();
    return ok ? 0 : 1;
}
