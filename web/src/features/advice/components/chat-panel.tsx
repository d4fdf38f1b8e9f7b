import { CopyOutlined, SendOutlined, StopOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Spin, Typography } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_QUESTION } from '../api/ask-question';
import type { FieldChoice } from '../api/keys';
import type { Turn } from '../lib/chat';
import { SUGGESTIONS, failureTitleKey } from '../lib/chat-texts';
import { AnswerMarkdown } from './markdown';
import { useAdviceCopy } from './use-advice-copy';
import { useChat } from './use-chat';
import './chat.css';

function Answer({ turn }: { turn: Turn }) {
  const { t } = useTranslation('advice');
  const copy = useAdviceCopy();
  const answering = turn.state === 'waiting' || turn.state === 'streaming';
  return (
    <div className="fw-chat__answer" data-testid="advice-answer" data-state={turn.state} aria-busy={answering}>
      {turn.answer ? <AnswerMarkdown text={turn.answer} /> : null}
      {turn.state === 'waiting' && (
        <Flex align="center" gap={8}>
          <Spin size="small" />
          <Typography.Text type="secondary">{t('chat.thinking')}</Typography.Text>
        </Flex>
      )}
      {turn.state === 'streaming' && <span className="fw-chat__cursor" aria-hidden />}
      {turn.failure && (
        <Alert
          type="error"
          showIcon
          role="alert"
          className="fw-chat__error"
          data-testid="advice-chat-error"
          data-kind={turn.failure.kind}
          title={t(failureTitleKey(turn.failure.kind))}
          description={turn.failure.message || t('chat.error.cutDetail')}
        />
      )}
      {turn.state === 'stopped' && <Typography.Text type="secondary">{t('chat.stopped')}</Typography.Text>}
      {turn.answer && !answering && (
        <Flex align="center" justify="space-between" gap={8} className="fw-chat__footer">
          <Typography.Text type="secondary" className="fw-chat__source">
            {turn.source === 'model' ? t('chat.fromModel', { model: turn.model || t('chat.model') }) : t('chat.fromAdvisor')}
          </Typography.Text>
          <Button size="small" type="text" icon={<CopyOutlined />} onClick={() => void copy(turn.answer)} data-testid="advice-answer-copy">
            {t('copy.answer')}
          </Button>
        </Flex>
      )}
    </div>
  );
}

/**
 * The chat about a field: a question goes to POST /apis/ai/farm/question and its answer is drawn
 * as markdown while it streams in. Each question is answered on its own from the field's facts.
 */
export default function ChatPanel({ field, deviceName }: { field: FieldChoice; deviceName: string }) {
  const { t } = useTranslation('advice');
  const { turns, ask, stop, answering } = useChat(field);
  const [question, setQuestion] = useState('');
  const log = useRef<HTMLDivElement>(null);
  const following = useRef(true);

  // Keeps the newest words in view while they arrive, unless the reader scrolled up to read.
  useEffect(() => {
    const el = log.current;
    if (el && following.current) el.scrollTop = el.scrollHeight;
  }, [turns]);

  const send = (text = question) => {
    const q = text.trim();
    if (!q || answering) return;
    following.current = true;
    setQuestion('');
    void ask(q);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  return (
    <div className="fw-chat" data-testid="advice-chat">
      <div
        className="fw-chat__log"
        ref={log}
        role="log"
        aria-live="polite"
        aria-label={t('chat.log', { device: deviceName })}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget;
          following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {turns.length === 0 ? (
          <div className="fw-chat__intro">
            <Typography.Paragraph type="secondary">{t('chat.intro', { device: deviceName })}</Typography.Paragraph>
            <Flex wrap gap={6}>
              {SUGGESTIONS.map((key) => (
                <Button key={key} size="small" onClick={() => send(t(`chat.suggestion.${key}`))} data-testid="advice-suggestion">
                  {t(`chat.suggestion.${key}`)}
                </Button>
              ))}
            </Flex>
          </div>
        ) : (
          turns.map((turn) => (
            <div key={turn.id} className="fw-chat__turn" data-testid="advice-turn" data-state={turn.state}>
              <div className="fw-chat__question">{turn.question}</div>
              <Answer turn={turn} />
            </div>
          ))
        )}
      </div>
      <div className="fw-chat__ask">
        <Input.TextArea
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={onKeyDown}
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={MAX_QUESTION}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.question')}
          data-testid="advice-question"
        />
        <Flex justify="space-between" align="center" gap={8}>
          <Typography.Text type="secondary" className="fw-chat__hint">
            {t('chat.enterHint')}
          </Typography.Text>
          {answering ? (
            <Button icon={<StopOutlined />} onClick={stop} data-testid="advice-stop">
              {t('chat.stop')}
            </Button>
          ) : (
            <Button type="primary" icon={<SendOutlined />} onClick={() => send()} disabled={!question.trim()} data-testid="advice-ask">
              {t('chat.ask')}
            </Button>
          )}
        </Flex>
      </div>
    </div>
  );
}
