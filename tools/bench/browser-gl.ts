import type { Page } from 'playwright-core';

/**
 * The WebGL back ends headless chromium offers on a machine without a GPU. Chromium picks SwiftShader (a
 * Vulkan rasteriser on the CPU) by default; ANGLE over Mesa's OpenGL ES (llvmpipe, multi-threaded, LLVM
 * compiled shaders) is there too when Mesa is installed, and is the faster one here.
 */
export const glBackends = {
  llvmpipe: ['--use-gl=angle', '--use-angle=gl-egl', '--ignore-gpu-blocklist'],
  swiftshader: ['--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
} as const;

export type GlBackend = keyof typeof glBackends;

export function glBackendFrom(value: string | undefined): GlBackend {
  const backend = value ?? 'llvmpipe';
  if (!(backend in glBackends))
    throw new Error(`unknown WebGL back end ${backend}: one of ${Object.keys(glBackends).join(', ')}`);
  return backend as GlBackend;
}

/** The renderer string the page's WebGL reports (what actually draws). */
export function webglRenderer(page: Page): Promise<string> {
  return page.evaluate<string>(`(() => {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'no WebGL 2';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  })()`);
}
