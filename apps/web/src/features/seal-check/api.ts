import { type SealCheck, sealCheckSchema } from '@vertragsgenerator/domain';
import { apiJson } from '@/lib/api';

/** Sends the file as a PDF whatever type the browser guessed: the server looks at its bytes. */
export function checkPdf(file: Blob): Promise<SealCheck> {
  return apiJson('/backend/signature/check', sealCheckSchema, {
    method: 'POST',
    body: new Blob([file], { type: 'application/pdf' }),
  });
}
