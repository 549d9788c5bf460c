// Short, stable descriptions of file-system errors.

/** The `code` of a Node-style error (`ENOENT`...), '' when there is none. */
export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** A short description of a file-system error, without the path. */
export function describeFsError(err: unknown): string {
  switch (errorCode(err)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'no such file or directory';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EISDIR':
      return 'is a directory';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    case 'EAGAIN':
    case 'ESPIPE':
      return 'not a regular file';
    case 'ENAMETOOLONG':
      return 'file name too long';
    case 'EIO':
      return 'input/output error';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ESTALE':
      return 'stale file handle';
  }
  const code = errorCode(err);
  const msg = err instanceof Error ? err.message : String(err);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}
