#version 330 core
// Image views: a full-viewport quad; the fragment shader maps each pixel back to the image.
layout(location = 0) in vec2 a_position;  // -1..1
out vec2 v_screen;                         // view pixels, origin top-left
uniform vec2 u_view_size;
void main() {
    v_screen = vec2((a_position.x * 0.5 + 0.5) * u_view_size.x, (0.5 - a_position.y * 0.5) * u_view_size.y);
    gl_Position = vec4(a_position, 0.0, 1.0);
}
