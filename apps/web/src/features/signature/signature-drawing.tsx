import { Box, Button, Group, Input, Stack } from '@mantine/core';
import { useEffect, useId, useRef } from 'react';
import SignaturePad from 'signature_pad';
import { texts } from '@/texts';

const CANVAS_HEIGHT_PX = 160;

export interface SignatureDrawingProps {
  /** The drawing as a PNG data URL, `undefined` while nothing is drawn. */
  onChange: (dataUrl: string | undefined) => void;
}

/** The optional drawn signature: a canvas to draw on with mouse, finger or pen, and `Löschen`. */
export function SignatureDrawing({ onChange }: SignatureDrawingProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const labelId = useId();
  const hintId = useId();

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let fittedWidth = -1;
    // The canvas draws at the device's pixel density, or the signature comes out blurred on high-DPI
    // screens. Resizing a canvas erases it, so a drawing is lost when the canvas's width changes (a
    // rotated phone); height changes of the window alone (a mobile address bar) keep it. The width comes
    // from the observer, which is told it once the page is laid out anyway: reading it from the canvas
    // as the page opens would lay the page out an extra time, which a phone feels.
    const fit = (width: number) => {
      if (width === fittedWidth) return;
      fittedWidth = width;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = width * ratio;
      canvas.height = CANVAS_HEIGHT_PX * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      if (padRef.current && !padRef.current.isEmpty()) {
        padRef.current.clear();
        onChangeRef.current(undefined);
      }
    };
    const pad = new SignaturePad(canvas);
    padRef.current = pad;
    const report = () => onChangeRef.current(pad.isEmpty() ? undefined : pad.toDataURL('image/png'));
    pad.addEventListener('endStroke', report);
    const resizes = new ResizeObserver(([entry]) => {
      // The border box, as `offsetWidth` gives it.
      const width = entry?.borderBoxSize[0]?.inlineSize;
      if (width !== undefined) fit(Math.round(width));
    });
    resizes.observe(canvas);
    return () => {
      resizes.disconnect();
      pad.removeEventListener('endStroke', report);
      pad.off();
      padRef.current = null;
    };
  }, []);

  function clear() {
    padRef.current?.clear();
    onChangeRef.current(undefined);
  }

  return (
    <Stack gap={4}>
      <Input.Label id={labelId}>{texts.signing.drawnSignature}</Input.Label>
      <Input.Description id={hintId}>{texts.signing.drawnSignatureHint}</Input.Description>
      <Box
        component="canvas"
        ref={canvasRef}
        role="img"
        aria-labelledby={labelId}
        aria-describedby={hintId}
        w="100%"
        h={CANVAS_HEIGHT_PX}
        maw={560}
        style={{
          border: '1px solid var(--mantine-color-gray-4)',
          borderRadius: 'var(--mantine-radius-sm)',
          // Lets a finger draw instead of scrolling the page.
          touchAction: 'none',
        }}
      />
      <Group>
        <Button variant="default" size="xs" onClick={clear}>
          {texts.signing.clearDrawing}
        </Button>
      </Group>
    </Stack>
  );
}
