#version 330 core
// Image views with zoom and pan. Modes:
//   0 colour image (RGB texture, or RGBA drawn opaque)
//   1 gray image (R texture)
//   2 grayscale difference out-ref (R32F): 0 dark, within tolerance green, beyond it red (too bright) or
//     blue (too dark), NaN (never written) magenta; brightness by the difference in bytes (u_to_byte)
//   3 matmul |C-R| over the allowed error (R32F): within tolerance (<= 1) dark green shades, beyond it
//     log-scaled heat from red through yellow to white (1000x over and more), NaN magenta
in vec2 v_screen;
out vec4 frag_color;
uniform sampler2D u_image;
uniform vec2 u_image_size; // in image pixels
uniform float u_step;      // image pixels per texel along a side: a downsampled view spans the whole image
uniform float u_scale;     // view pixels per image pixel
uniform vec2 u_offset;     // view position of the image's top-left corner
uniform int u_mode;
uniform float u_tolerance; // mode 2: allowed difference
uniform float u_to_byte;   // mode 2: a difference times this is in bytes (255 for a float image in 0..1)

vec3 heat(float t) {
    t = clamp(t, 0.0, 1.0);
    return vec3(smoothstep(0.0, 0.4, t), smoothstep(0.35, 0.8, t), smoothstep(0.75, 1.0, t));
}

void main() {
    vec2 pixel = (v_screen - u_offset) / u_scale;
    if (pixel.x < 0.0 || pixel.y < 0.0 || pixel.x >= u_image_size.x || pixel.y >= u_image_size.y) {
        // Outside the image: a quiet checkerboard, so the edge is visible.
        float c = mod(floor(v_screen.x / 12.0) + floor(v_screen.y / 12.0), 2.0);
        frag_color = vec4(vec3(0.13 + 0.03 * c), 1.0);
        return;
    }
    vec4 texel = texture(u_image, pixel / (u_step * vec2(textureSize(u_image, 0))));
    if (u_mode == 0) {
        frag_color = vec4(texel.rgb, 1.0);
    } else if (u_mode == 1) {
        frag_color = vec4(vec3(texel.r), 1.0);
    } else if (u_mode == 2) {
        float d = texel.r;
        if (isnan(d)) frag_color = vec4(1.0, 0.0, 1.0, 1.0);
        else if (d == 0.0) frag_color = vec4(0.08, 0.08, 0.08, 1.0);
        else if (abs(d) <= u_tolerance) frag_color = vec4(0.1, 0.45, 0.15, 1.0);
        else if (d > 0.0) frag_color = vec4(0.5 + 0.5 * clamp(d * u_to_byte / 64.0, 0.0, 1.0), 0.1, 0.1, 1.0);
        else frag_color = vec4(0.1, 0.2, 0.5 + 0.5 * clamp(-d * u_to_byte / 64.0, 0.0, 1.0), 1.0);
    } else {
        float e = texel.r;
        if (isnan(e)) { frag_color = vec4(1.0, 0.0, 1.0, 1.0); return; }
        if (e <= 1.0) { frag_color = vec4(0.04, 0.08 + 0.3 * e, 0.06, 1.0); return; }
        float t = 0.25 + 0.75 * clamp(log(e) / log(1000.0), 0.0, 1.0);
        frag_color = vec4(heat(t), 1.0);
    }
}
