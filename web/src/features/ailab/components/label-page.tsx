import { AimOutlined, ArrowLeftOutlined, BorderOutlined, DeleteOutlined, DragOutlined, LeftOutlined, RightOutlined, SaveOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Empty, Flex, Form, Input, Segmented, Select, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useId, useMemo, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useBeforeUnload, useBlocker, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { useElements } from '../api/elements';
import { sampleImageSrc, useSample, useSamples, useUpdateSample } from '../api/samples';
import { elementColor } from '../lib/colors';
import { editorReducer, initialEditor } from '../lib/editor-state';
import { neighbours } from '../lib/filters';
import { isPoint, normalise } from '../lib/geometry';
import { keyAction, type DrawMode } from '../lib/shortcuts';
import type { Sample } from '../types';
import { LabelEditor } from './label-editor';
import { LabNav } from './lab-header';
import { labelPath } from './samples-page';
import { ShortcutsHelp } from './shortcuts-help';

/** Labels one sample: boxes and points per element, drawn with the mouse, driven by the keyboard too. */
export function LabelPage({ sampleId, title }: { sampleId: number; title?: string }) {
  const { t } = useTranslation('ailab');
  const sample = useSample(sampleId);
  return (
    <div className="fw-page fw-page--wide fw-lab" data-testid="lab-label">
      <Flex align="center" gap={8} className="fw-lab__header">
        <Link to={paths.modelService.samples}>
          <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('label.back')} />
        </Link>
        <Typography.Title level={3} className="fw-page__title fw-lab__title">
          {title} {sample.data ? `#${sample.data.id}` : ''}
        </Typography.Title>
      </Flex>
      <LabNav />
      {sample.error ? (
        <Alert type="error" showIcon role="alert" title={t('samples.loadFailed')} description={errorMessage(sample.error)} />
      ) : sample.data ? (
        <Labeller key={sample.data.id} sample={sample.data} />
      ) : (
        <Skeleton active />
      )}
    </div>
  );
}

const MODES: { mode: DrawMode; icon: React.ReactNode; key: string }[] = [
  { mode: 'box', icon: <BorderOutlined />, key: 'B' },
  { mode: 'point', icon: <AimOutlined />, key: 'P' },
  { mode: 'select', icon: <DragOutlined />, key: 'V' },
];

function Labeller({ sample }: { sample: Sample }) {
  const { t } = useTranslation('ailab');
  const navigate = useNavigate();
  const notice = useNotice();
  const elements = useElements();
  const samples = useSamples();
  const update = useUpdateSample();
  const helpId = useId();
  const [helpOpen, setHelpOpen] = useState(false);
  const [tag, setTag] = useState(sample.tag);
  const [location, setLocation] = useState(sample.location);
  const list = useMemo(() => elements.data ?? [], [elements.data]);
  const identifiers = useMemo(() => list.map((element) => element.identifier), [list]);
  const [state, dispatch] = useReducer(editorReducer, undefined, () => ({ ...initialEditor(), labels: sample.labels }));
  const size = { width: sample.width, height: sample.height };
  const { previous, next } = neighbours((samples.data ?? []).map((item) => item.id), sample.id);
  const dirty = state.dirty || tag !== sample.tag || location !== sample.location;

  // The first element is the one drawn with until another is picked.
  useEffect(() => {
    if (!state.element && identifiers.length > 0) dispatch({ type: 'element', element: identifiers[0] });
  }, [identifiers, state.element]);

  const colorOf = useCallback((element: string) => elementColor(identifiers, element), [identifiers]);
  const nameOf = useCallback((element: string) => list.find((item) => item.identifier === element)?.name ?? element, [list]);

  const save = useCallback(
    (then?: () => void) => {
      update.mutate(
        { id: sample.id, tag: tag.trim(), location: location.trim(), labels: state.labels },
        {
          onSuccess: () => {
            dispatch({ type: 'saved' });
            notice.success(t('saved'));
            then?.();
          },
          onError: (error) => notice.error(`${t('saveFailed')}: ${errorMessage(error)}`),
        },
      );
    },
    [update, sample.id, tag, location, state.labels, notice, t],
  );

  // Leaving with unsaved labels asks first, unless it is the previous or next sample (saved on the way).
  const { modal } = App.useApp();
  const saving = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !saving.current && currentLocation.pathname !== nextLocation.pathname);
  const blocked = blocker.state === 'blocked';
  const latestBlocker = useRef(blocker);
  useEffect(() => {
    latestBlocker.current = blocker;
  });
  useEffect(() => {
    if (!blocked) return;
    // One question per blocked leave: the blocker object changes on every render.
    modal.confirm({
      title: t('label.leaveTitle'),
      content: t('label.leaveContent'),
      okText: t('label.leave'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: () => latestBlocker.current.proceed?.(),
      onCancel: () => latestBlocker.current.reset?.(),
    });
  }, [blocked, modal, t]);
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (dirty) event.preventDefault();
      },
      [dirty],
    ),
  );

  const go = useCallback(
    (id: number | undefined) => {
      if (id === undefined) return;
      if (!dirty) {
        navigate(labelPath(id));
        return;
      }
      save(() => {
        saving.current = true;
        navigate(labelPath(id));
      });
    },
    [dirty, save, navigate],
  );

  // Kept in a ref so the one key listener always acts on the latest state.
  const onKey = useRef<(event: KeyboardEvent) => void>(() => undefined);
  const handleKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    const action = keyAction({
      key: event.key,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      altKey: event.altKey,
      targetTag: target?.tagName,
      targetEditable: target?.isContentEditable,
    });
    if (!action) return;
    // Arrows and Delete keep their own meaning on a focused control other than the picture.
    const onControl = target instanceof HTMLElement && target.closest('button, [role="radio"], [role="radiogroup"], a, .ant-select') !== null;
    if (onControl && (action.type === 'previous' || action.type === 'next' || action.type === 'delete')) return;
    event.preventDefault();
    switch (action.type) {
      case 'element': {
        const identifier = identifiers[action.index];
        if (identifier) dispatch({ type: 'element', element: identifier });
        break;
      }
      case 'mode':
        dispatch({ type: 'mode', mode: action.mode });
        break;
      case 'delete':
        dispatch({ type: 'delete' });
        break;
      case 'deselect':
        if (helpOpen) setHelpOpen(false);
        else dispatch({ type: 'select', index: -1 });
        break;
      case 'save':
        if (!update.isPending) save();
        break;
      case 'previous':
        go(previous);
        break;
      case 'next':
        go(next);
        break;
      case 'help':
        setHelpOpen((open) => !open);
        break;
    }
  };

  useEffect(() => {
    onKey.current = handleKey;
  });

  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKey.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const selected = state.labels[state.selected];
  const noElements = elements.data !== undefined && list.length === 0;

  return (
    <div className="fw-label">
      <div>
        <Flex wrap gap={8} align="center" justify="space-between" className="fw-label__tools">
          <Flex wrap gap={8} align="center">
            <Segmented<DrawMode>
              value={state.mode}
              onChange={(mode) => dispatch({ type: 'mode', mode })}
              aria-label={t('label.mode')}
              options={MODES.map(({ mode, icon, key }) => ({
                value: mode,
                icon,
                label: (
                  <span data-testid={`label-mode-${mode}`}>
                    {t(`label.modes.${mode}`)} <span className="fw-lab-key">{key}</span>
                  </span>
                ),
              }))}
            />
            <Tooltip title={t('label.deleteSelected')}>
              <Button icon={<DeleteOutlined />} danger disabled={!selected} onClick={() => dispatch({ type: 'delete' })} aria-label={t('label.deleteSelected')} aria-keyshortcuts="Delete" data-testid="label-delete" />
            </Tooltip>
          </Flex>
          <Flex wrap gap={8} align="center">
            <Button icon={<LeftOutlined />} disabled={previous === undefined || update.isPending} onClick={() => go(previous)} aria-keyshortcuts="ArrowLeft" data-testid="label-previous">
              {t('label.previous')}
            </Button>
            <Button disabled={next === undefined || update.isPending} onClick={() => go(next)} aria-keyshortcuts="ArrowRight" data-testid="label-next">
              {t('label.next')} <RightOutlined />
            </Button>
            <Button type="primary" icon={<SaveOutlined />} loading={update.isPending} onClick={() => save()} aria-keyshortcuts="Control+S" data-testid="label-save">
              {t('label.save')}
            </Button>
            <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
          </Flex>
        </Flex>
        {noElements ? (
          <Alert
            type="warning"
            showIcon
            className="fw-lab__toolbar"
            title={t('label.noElements')}
            action={
              <Link to={paths.aiLab}>
                <Button size="small">{t('label.addElements')}</Button>
              </Link>
            }
          />
        ) : (
          <div className="fw-label__elements fw-lab__toolbar" role="radiogroup" aria-label={t('label.element')} data-testid="label-elements">
            {list.map((element, index) => (
              <Button
                key={element.id}
                role="radio"
                aria-checked={state.element === element.identifier}
                type={state.element === element.identifier ? 'primary' : 'default'}
                onClick={() => dispatch({ type: 'element', element: element.identifier })}
                aria-keyshortcuts={index < 9 ? String(index + 1) : undefined}
                data-testid={`label-element-${element.identifier}`}
              >
                <span className="fw-lab-swatch" style={{ background: colorOf(element.identifier) }} aria-hidden />
                {element.name}
                {index < 9 ? <span className="fw-lab-key">{index + 1}</span> : null}
              </Button>
            ))}
          </div>
        )}
        <div className="fw-label__stage">
          <LabelEditor
            src={sampleImageSrc(sample)}
            size={size}
            labels={state.labels}
            selected={state.selected}
            mode={state.mode}
            canDraw={state.element !== ''}
            colorOf={colorOf}
            nameOf={nameOf}
            onAdd={(label) => dispatch({ type: 'add', label })}
            onSelect={(index) => dispatch({ type: 'select', index })}
            onMove={(index, dx, dy) => dispatch({ type: 'move', index, dx, dy, size })}
            describedBy={helpId}
          />
        </div>
        <Typography.Paragraph type="secondary" id={helpId} style={{ marginTop: 8 }}>
          {t('label.howTo')}
        </Typography.Paragraph>
      </div>
      <div className="fw-label__side">
        <Card
          size="small"
          variant="borderless"
          title={t('label.labels', { count: state.labels.length })}
          extra={dirty ? <Tag color="orange">{t('label.unsaved')}</Tag> : <Tag color="green">{t('label.allSaved')}</Tag>}
          data-testid="label-list"
        >
          {state.labels.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('label.none')} />
          ) : (
            <div className="fw-label__list">
              {state.labels.map((label, index) => {
                const n = normalise(label, size);
                return (
                  <button
                    type="button"
                    key={index}
                    className="fw-label__item"
                    aria-pressed={index === state.selected}
                    onClick={() => dispatch({ type: 'select', index: index === state.selected ? -1 : index })}
                    title={`YOLO ${n.cx.toFixed(3)} ${n.cy.toFixed(3)} ${n.w.toFixed(3)} ${n.h.toFixed(3)}`}
                    data-testid="label-item"
                  >
                    <span className="fw-lab-swatch" style={{ background: colorOf(label.element) }} aria-hidden />
                    <span>{nameOf(label.element)}</span>
                    <span className="fw-label__coords">
                      {isPoint(label) ? t('label.point', { x: label.x, y: label.y }) : t('label.box', { x: label.x, y: label.y, w: label.w, h: label.h })}
                    </span>
                  </button>
                );
              })}
            </div>
          )}
        </Card>
        {selected ? (
          <Card size="small" variant="borderless" title={t('label.selected')}>
            <Select
              style={{ width: '100%' }}
              aria-label={t('label.selectedElement')}
              value={selected.element}
              onChange={(element: string) => dispatch({ type: 'relabel', element })}
              options={list.map((element) => ({ value: element.identifier, label: element.name }))}
              data-testid="label-relabel"
            />
          </Card>
        ) : null}
        <Card size="small" variant="borderless" title={t('label.sample')}>
          <Form layout="vertical" size="small">
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {sample.deviceName || t('samples.uploaded')}
              {sample.sn ? ` · ${sample.sn}` : ''}
              <br />
              {formatDateTime(sample.sampleTime)} · {sample.width}×{sample.height}
            </Typography.Paragraph>
            <Form.Item label={t('samples.tag')} htmlFor="label-tag">
              <Input id="label-tag" value={tag} onChange={(event) => setTag(event.target.value)} maxLength={32} data-testid="label-tag" />
            </Form.Item>
            <Form.Item label={t('samples.location')} htmlFor="label-location" style={{ marginBottom: 0 }}>
              <Input id="label-location" value={location} onChange={(event) => setLocation(event.target.value)} maxLength={64} />
            </Form.Item>
          </Form>
        </Card>
      </div>
    </div>
  );
}
