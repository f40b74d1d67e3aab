/** localStorage key of the sidebar's collapsed/expanded state (desktop only). */
export const SIDEBAR_STORAGE_KEY = "lumen.sidebar";
