import { Button, DotLoading, TextArea } from 'antd-mobile';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_QUESTION } from '@/features/advice/api/ask-question';
import type { FieldChoice } from '@/features/advice/api/keys';
import { AnswerMarkdown } from '@/features/advice/components/markdown';
import { useAdviceCopy } from '@/features/advice/components/use-advice-copy';
import { useChat } from '@/features/advice/components/use-chat';
import type { Turn } from '@/features/advice/lib/chat';
import { failureTitleKey, SUGGESTIONS } from '@/features/advice/lib/chat-texts';

function MobileAnswer({ turn }: { turn: Turn }) {
  const { t } = useTranslation('advice');
  const copy = useAdviceCopy();
  const answering = turn.state === 'waiting' || turn.state === 'streaming';
  return (
    <div className="fw-m-chat__answer" data-testid="advice-answer" data-state={turn.state} aria-busy={answering}>
      {turn.answer ? <AnswerMarkdown text={turn.answer} /> : null}
      {turn.state === 'waiting' && (
        <span className="fw-m-chat__muted">
          {t('chat.thinking')} <DotLoading />
        </span>
      )}
      {turn.failure && (
        <div className="fw-m-chat__error" role="alert" data-testid="advice-chat-error" data-kind={turn.failure.kind}>
          <strong>{t(failureTitleKey(turn.failure.kind))}</strong>
          <span>{turn.failure.message || t('chat.error.cutDetail')}</span>
        </div>
      )}
      {turn.state === 'stopped' && <span className="fw-m-chat__muted">{t('chat.stopped')}</span>}
      {turn.answer && !answering && (
        <div className="fw-m-chat__footer">
          <span className="fw-m-chat__muted">{turn.source === 'model' ? t('chat.fromModel', { model: turn.model || t('chat.model') }) : t('chat.fromAdvisor')}</span>
          <Button size="mini" fill="none" color="primary" onClick={() => void copy(turn.answer)} data-testid="advice-answer-copy">
            {t('copy.answer')}
          </Button>
        </div>
      )}
    </div>
  );
}

/** The phone's chat about a field: the answers stream in above, the question box stays at the bottom. */
export default function MobileChat({ field, deviceName }: { field: FieldChoice; deviceName: string }) {
  const { t } = useTranslation('advice');
  const { turns, ask, stop, answering } = useChat(field);
  const [question, setQuestion] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const box = useId();

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [turns]);

  const send = (text = question) => {
    const q = text.trim();
    if (!q || answering) return;
    setQuestion('');
    void ask(q);
  };

  return (
    <div className="fw-m-chat" data-testid="advice-chat">
      <div className="fw-m-chat__log" role="log" aria-live="polite" aria-label={t('chat.log', { device: deviceName })}>
        {turns.length === 0 ? (
          <div className="fw-m-chat__intro">
            <p>{t('chat.intro', { device: deviceName })}</p>
            <div className="fw-m-chat__suggestions">
              {SUGGESTIONS.map((key) => (
                <Button key={key} size="small" shape="rounded" onClick={() => send(t(`chat.suggestion.${key}`))} data-testid="advice-suggestion">
                  {t(`chat.suggestion.${key}`)}
                </Button>
              ))}
            </div>
          </div>
        ) : (
          turns.map((turn) => (
            <div key={turn.id} className="fw-m-chat__turn" data-testid="advice-turn" data-state={turn.state}>
              <div className="fw-m-chat__question">{turn.question}</div>
              <MobileAnswer turn={turn} />
            </div>
          ))
        )}
        <div ref={end} />
      </div>
      <div className="fw-m-chat__ask">
        <label htmlFor={box} className="fw-m-chat__label">
          {t('chat.question')}
        </label>
        <TextArea
          id={box}
          enterKeyHint="send"
          onEnterPress={(e) => {
            if (!e.nativeEvent.isComposing && !e.shiftKey) {
              e.preventDefault();
              send();
            }
          }}
          value={question}
          onChange={setQuestion}
          autoSize={{ minRows: 1, maxRows: 4 }}
          maxLength={MAX_QUESTION}
          placeholder={t('chat.placeholder')}
          data-testid="advice-question"
        />
        {answering ? (
          <Button size="small" onClick={stop} data-testid="advice-stop">
            {t('chat.stop')}
          </Button>
        ) : (
          <Button size="small" color="primary" disabled={!question.trim()} onClick={() => send()} data-testid="advice-ask">
            {t('chat.ask')}
          </Button>
        )}
      </div>
    </div>
  );
}
