#!/usr/bin/env bash
# build-tree.sh SOURCE_DIR FUZZ_BUILD_DIR [TARGET]
# Configures (once) and builds the clang + libFuzzer tree with only the fuzz targets (default
# target buzz_fuzz). Used by the fuzz_build ctest fixture; ./dev fuzz does the same via the preset.
set -euo pipefail
source_dir=$1
build_dir=$2
target=${3:-buzz_fuzz}
if [ ! -f "$build_dir/build.ninja" ]; then
    cmake -S "$source_dir" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_COMPILER=clang++ -DBUZZ_BUILD_FUZZ=ON -DBUZZ_BUILD_TESTS=ON -DBUZZ_BUILD_BENCH=OFF >/dev/null
fi
start=$(date +%s)
cmake --build "$build_dir" --target "$target" --parallel "${BUZZ_FUZZ_JOBS:-2}"
echo "fuzz tree built in $(( $(date +%s) - start )) s"
