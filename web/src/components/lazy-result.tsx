import type { ResultProps } from 'antd';
import { lazy, Suspense, type ComponentType } from 'react';

/** The same texts without antd's illustrations, should the Result chunk itself fail to load. */
function PlainResult({ title, subTitle, extra }: ResultProps) {
  return (
    <div className="fw-plain-result" role="alert">
      <h1>{title}</h1>
      <p>{subTitle}</p>
      {extra}
    </div>
  );
}

// antd's Result carries its status illustrations (≈ 40 kB): they load only when an error shows,
// not with every page. An error page after a release may find the old chunks gone: then the
// plain version shows.
const Result = lazy<ComponentType<ResultProps>>(() =>
  import('antd/es/result').then(
    (module) => ({ default: module.default as ComponentType<ResultProps> }),
    () => ({ default: PlainResult }),
  ),
);

export function LazyResult(props: ResultProps) {
  return (
    <Suspense fallback={null}>
      <Result {...props} />
    </Suspense>
  );
}
