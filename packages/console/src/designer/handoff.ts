// The desktop Report Builder hand-off: the draft as an .rdl file, the builder's deep link for a published report,
// and an .rdl edited there read back unchanged.

/**
 * The desktop builder's custom URI scheme. The reporting service's "Edit in Power BI Report Builder" hands the
 * report's web address to the builder as `<scheme>://<address>` (see the README, "Report designer").
 */
export const BUILDER_SCHEME = 'ms-pbi-builder';

/** The deep link that opens a published report in the desktop builder. */
export const builderLink = (webUrl: string) => `${BUILDER_SCHEME}://${webUrl}`;

/** Saves a text as a file through the browser. */
export function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/xml' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName.replace(/[\\/:*?"<>|]+/g, '_');
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The text of an uploaded .rdl, exactly as the file has it (a UTF-8 byte order mark is the only thing dropped). */
export async function readUpload(file: File): Promise<string> {
  const text = new TextDecoder('utf-8').decode(await file.arrayBuffer());
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
