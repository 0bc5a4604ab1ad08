// SPDX-License-Identifier: MIT
// libFuzzer target for the scene loader: any bytes must either load or fail with a message, never crash,
// read out of bounds, overflow or leak. Built and run by scripts/fuzz.sh (clang -fsanitize=fuzzer,address,
// undefined, with FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION so mesh files stay inside scenes/).
#include <stdint.h>
#include <string.h>

#include "tread_scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    scene s;
    scene_error err;
    // Mesh files resolve against scenes/, where the seed corpus's meshes live.
    if (scene_load_buffer("scenes/fuzz.json", (const char *)data, size, &s, &err)) {
        scene_free(&s);
    } else if (err.message[0] == '\0' || memchr(err.message, '\0', sizeof err.message) == NULL) {
        __builtin_trap(); // every failure must explain itself in a terminated message
    }
    return 0;
}
