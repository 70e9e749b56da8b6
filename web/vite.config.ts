// The page is served by `planfirst serve` from web/dist; API calls go to the same origin.
import { defineConfig } from "vite";

export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 2048 },
});
