// SPDX-License-Identifier: MIT
// Mesh files of a scene (a mesh body's "file"): any format assimp reads, every triangle of every node in file space.
// Native only: the WebAssembly build has no file system and compiles no third-party C (web/wasm/scene_glue.c says
// so in its own scene_load_mesh_file). Called by geometry.c.
#define _POSIX_C_SOURCE 200809L // stat

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "scene_internal.h"

_Static_assert(sizeof(struct aiMatrix4x4) == 16 * sizeof(ai_real), "aiMatrix4x4 is 16 reals, row-major");

static void mat4_mul(struct aiMatrix4x4 *out, const struct aiMatrix4x4 *a, const struct aiMatrix4x4 *b) {
    ai_real x[16], y[16], r[16]; // row-major: a1 a2 a3 a4 b1 ...
    memcpy(x, a, sizeof x);
    memcpy(y, b, sizeof y);
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) r[4 * i + k] = x[4 * i] * y[k] + x[4 * i + 1] * y[4 + k] + x[4 * i + 2] * y[8 + k] + x[4 * i + 3] * y[12 + k];
    memcpy(out, r, sizeof r);
}

static void count_node(const struct aiScene *sc, const struct aiNode *node, size_t *vertices, size_t *triangles, int depth) {
    if (!node || depth > 64) return;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= sc->mNumMeshes) continue;
        const struct aiMesh *m = sc->mMeshes[node->mMeshes[i]];
        *vertices += m->mNumVertices;
        for (unsigned f = 0; f < m->mNumFaces; ++f) *triangles += m->mFaces[f].mNumIndices == 3;
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) count_node(sc, node->mChildren[i], vertices, triangles, depth + 1);
}

// Append every triangle of the node's meshes, in world (file) space, then the children's.
static void gather_node(const struct aiScene *sc, const struct aiNode *node, struct aiMatrix4x4 parent, mesh_build *mb, int depth) {
    if (!node || depth > 64) return;
    struct aiMatrix4x4 world;
    mat4_mul(&world, &parent, &node->mTransformation);
    ai_real w[16];
    memcpy(w, &world, sizeof w);
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        if (node->mMeshes[i] >= sc->mNumMeshes) continue;
        const struct aiMesh *m = sc->mMeshes[node->mMeshes[i]];
        size_t base = mb->vertex_count;
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            struct aiVector3D p = m->mVertices[v];
            mb->vertices[mb->vertex_count++] = tread_v3((float)(w[0] * p.x + w[1] * p.y + w[2] * p.z + w[3]),
                                                        (float)(w[4] * p.x + w[5] * p.y + w[6] * p.z + w[7]),
                                                        (float)(w[8] * p.x + w[9] * p.y + w[10] * p.z + w[11]));
        }
        for (unsigned f = 0; f < m->mNumFaces; ++f) {
            const struct aiFace *face = &m->mFaces[f];
            if (face->mNumIndices != 3) continue; // points and lines
            bool ok = face->mIndices[0] < m->mNumVertices && face->mIndices[1] < m->mNumVertices && face->mIndices[2] < m->mNumVertices;
            if (!ok) continue;
            for (int k = 0; k < 3; ++k) mb->indices[3 * mb->triangle_count + (size_t)k] = (uint32_t)(base + face->mIndices[k]);
            ++mb->triangle_count;
        }
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) gather_node(sc, node->mChildren[i], world, mb, depth + 1);
}

bool scene_load_mesh_file(loader *L, const char *file, const char *jp, mesh_build *mb) {
    char full[1024], q[64];
    js_quote(q, sizeof q, file);
    if (file[0] == '\0') return js_fail(L, jp, "is empty");
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    // The fuzzer must not wander the file system: only plain names next to the scene.
    if (file[0] == '/' || strstr(file, "..")) return js_fail(L, jp, "cannot read \"%s\": outside the scene's directory (fuzz build)", q);
#endif
    if (file[0] == '/') snprintf(full, sizeof full, "%s", file);
    else snprintf(full, sizeof full, "%s%s", L->dir, file);
    struct stat st;
    if (stat(full, &st) == 0) {
        if (!S_ISREG(st.st_mode)) return js_fail(L, jp, "cannot read \"%s\": not a regular file", q);
        if (st.st_size > SCENE_MAX_MESH_FILE_BYTES) return js_fail(L, jp, "\"%s\" is %lld bytes; at most %d", q, (long long)st.st_size, SCENE_MAX_MESH_FILE_BYTES);
    }
    const struct aiScene *sc = aiImportFile(full, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    if (!sc) return js_fail(L, jp, "cannot read \"%s\": %s", q, aiGetErrorString());
    size_t vertices = 0, triangles = 0;
    struct aiMatrix4x4 identity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    if (sc->mRootNode) count_node(sc, sc->mRootNode, &vertices, &triangles, 0);
    bool ok = true;
    if (triangles == 0) ok = js_fail(L, jp, "\"%s\" has no triangles", q);
    else if (triangles > SCENE_MAX_MESH_TRIANGLES)
        ok = js_fail(L, jp, "\"%s\" has %zu triangles; at most %d", q, triangles, SCENE_MAX_MESH_TRIANGLES);
    else if (vertices > SCENE_MAX_MESH_VERTICES)
        ok = js_fail(L, jp, "\"%s\" has %zu vertices; at most %d", q, vertices, SCENE_MAX_MESH_VERTICES);
    if (ok) {
        mb->vertices = (tread_vec3 *)js_alloc_array(L, jp, vertices, sizeof(tread_vec3));
        mb->indices = (uint32_t *)js_alloc_array(L, jp, triangles * 3, sizeof(uint32_t));
        ok = mb->vertices && mb->indices;
    }
    if (ok) gather_node(sc, sc->mRootNode, identity, mb, 0);
    aiReleaseImport(sc);
    if (ok && mb->triangle_count == 0) ok = js_fail(L, jp, "\"%s\" has no valid triangles", q);
    return ok;
}

