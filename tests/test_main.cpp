// The main of every test program. Runs of planfirst in tests draw their charts in their own node
// child, so no shared SVG renderer outlives a test, also when a test program runs outside ctest; a
// test that wants a shared renderer asks for one (or sets the variable in its command line).
#include <gmock/gmock.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  ::setenv("PLANFIRST_RENDER_KEEP_ALIVE_SECONDS", "0", /*overwrite=*/0);
  testing::InitGoogleMock(&argc, argv);
  return RUN_ALL_TESTS();
}
