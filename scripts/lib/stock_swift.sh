# Sourced by scripts/generate (from the repository's root, with include_dir set): the Swift code
# of the stock mobile stack (clients/stock-swift), made by the stock plugins, and its stamp.
# The tests source it on a copy of the tree to check the stamp logic without building anything.

# The stock mobile stack: the souk.v1 contract and the google.rpc error details its errors carry,
# compiled by the stock Swift plugins into one module.
stock_dir=clients/stock-swift
stock_out=$stock_dir/Sources/SoukStockAPI
stock_stamp=$stock_out/GENERATED.stamp
stock_swift_opt=Visibility=Public,FileNaming=PathToUnderscores
stock_grpc_opt=Visibility=Public,Server=false,FileNaming=PathToUnderscores

stock_swift_inputs() { (cd Proto && find souk/v1 google/rpc -name '*.proto' -type f | sort); }

# The stamp's lines that depend on the inputs only: the packages the plugins come from (their
# versions pinned with exact: in the package manifest), the plugin options, each input's sha256.
stock_swift_input_lines() {
  sed -n 's|.*\.package(url: "https://github.com/\([^"]*\)\.git", exact: "\([^"]*\)").*|tool \1 \2|p' "$stock_dir/Package.swift" \
    | grep -E '^tool (apple/swift-protobuf|grpc/grpc-swift-2|grpc/grpc-swift-protobuf) '
  echo "option swift_opt=$stock_swift_opt"
  echo "option grpc-swift-2_opt=$stock_grpc_opt"
  local f
  while IFS= read -r f; do echo "input $(sha256sum "Proto/$f" | cut -d' ' -f1) $f"; done < <(stock_swift_inputs)
}

# Prints what makes the committed stock-swift code stale, one line each; nothing when current.
stock_swift_stale() {
  [ -f "$stock_stamp" ] || { echo "  $stock_stamp is missing"; return 0; }
  diff <(grep -E '^(tool|option|input) ' "$stock_stamp") <(stock_swift_input_lines) | sed -n 's/^< /  stamped: /p; s/^> /  now:     /p' || true
  local kind sum name f
  while read -r kind sum name; do
    [ "$kind" = output ] || continue
    if [ ! -f "$stock_out/$name" ]; then echo "  missing: $stock_out/$name"
    elif [ "$(sha256sum "$stock_out/$name" | cut -d' ' -f1)" != "$sum" ]; then echo "  edited:  $stock_out/$name"
    fi
  done <"$stock_stamp"
  for f in "$stock_out"/*.swift; do
    [ -f "$f" ] || continue
    grep -qE "^output [0-9a-f]+ $(basename "$f")\$" "$stock_stamp" || echo "  not generated: $f"
  done
}

# Builds the plugins (debug, in the package's own build folder) and rewrites the code and stamp.
generate_stock_swift() {
  local scratch="$stock_dir/.build/plugins" product
  for product in protoc-gen-swift protoc-gen-grpc-swift-2; do
    swift build --package-path "$stock_dir" --scratch-path "$scratch" --product "$product" >&2
  done
  local bin out f inputs=()
  bin="$(swift build --package-path "$stock_dir" --scratch-path "$scratch" --show-bin-path)"
  while IFS= read -r f; do inputs+=("$f"); done < <(stock_swift_inputs)
  out="$(mktemp -d)"
  protoc -I Proto -I "$include_dir" \
    --plugin=protoc-gen-swift="$bin/protoc-gen-swift" --swift_out="$out" --swift_opt="$stock_swift_opt" \
    --plugin=protoc-gen-grpc-swift-2="$bin/protoc-gen-grpc-swift-2" --grpc-swift-2_out="$out" --grpc-swift-2_opt="$stock_grpc_opt" \
    "${inputs[@]}"
  rm -f "$stock_out"/*.swift
  mkdir -p "$stock_out"
  cp "$out"/*.swift "$stock_out/"
  rm -rf "$out"
  {
    echo "# Written by scripts/generate --stock-swift. DO NOT EDIT: scripts/generate --check compares it"
    echo "# with Proto/ and $stock_dir/Package.swift; when they change, run scripts/generate --stock-swift."
    echo "# Made with $(protoc --version); informational, --check does not compare it."
    stock_swift_input_lines
    (cd "$stock_out" && for f in *.swift; do echo "output $(sha256sum "$f" | cut -d' ' -f1) $f"; done)
  } >"$stock_stamp"
  echo "generate: wrote $stock_out (${#inputs[@]} .proto files) and its stamp" >&2
}
