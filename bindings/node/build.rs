//! Sets the linker flags a Node addon needs (napi-build).
fn main() {
    napi_build::setup();
}
