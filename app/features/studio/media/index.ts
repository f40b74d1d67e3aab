/** The studio's media pieces: the picker (library and upload) and a video item's parts editor. */
export { formatBytes, listMedia, markdownImage, type PickableKind, uploadMedia } from "./media-client.ts";
export { MediaPicker, type MediaPickerProps } from "./media-picker.tsx";
export { VideoPartsEditor, type VideoPartsEditorProps } from "./video-parts-editor.tsx";
