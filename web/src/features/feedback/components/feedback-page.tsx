import { PlusOutlined, SendOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, Form, Image, Input, Select, Tag, Typography, Upload } from 'antd';
import type { UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { feedbackCategories, useMyFeedback, useSendFeedback, type Feedback, type FeedbackCategory } from '../api/feedback';
import { contactTooLong, MAX_CONTACT, MAX_SCREENSHOTS, MAX_TEXT, shotProblem, SHOT_TYPES, textProblem } from '../validation';
import './feedback.css';

interface FormValues {
  category?: FeedbackCategory;
  text?: string;
  contact?: string;
}

const formFields = ['category', 'text', 'contact'] as const;

/**
 * A chosen picture's thumbnail as a data: URL: the console's content policy admits data: pictures,
 * not the blob: URLs antd's own thumbnails are drawn from.
 */
function dataURL(file: File | Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => resolve('');
    reader.readAsDataURL(file);
  });
}

/**
 * /console/feedback: tell the operator about a problem or an idea — a category, the text, up to
 * three screenshots and how to reach you — and see what you sent, open or answered, with the answer.
 * offered is the contact to fill in: the account's bound e-mail address or phone.
 */
export function FeedbackPage({ offered = '' }: { offered?: string }) {
  const { t } = useTranslation('feedback');
  const { message } = App.useApp();
  const [form] = Form.useForm<FormValues>();
  const mine = useMyFeedback();
  const send = useSendFeedback();
  const [shots, setShots] = useState<UploadFile[]>([]);
  const [shotError, setShotError] = useState<string | null>(null);

  // Offer the account's bound address (or phone) as the contact, once it is known.
  useEffect(() => {
    if (offered && !form.isFieldTouched('contact')) form.setFieldValue('contact', offered);
  }, [form, offered]);

  const submit = (v: FormValues) => {
    setShotError(null);
    send.mutate(
      {
        category: v.category as FeedbackCategory,
        text: (v.text ?? '').trim(),
        contact: (v.contact ?? '').trim(),
        screenshots: shots.map((s) => s.originFileObj as File),
      },
      {
        onSuccess: () => {
          void message.success(t('sent'));
          form.resetFields(['text']);
          setShots([]);
          setShotError(null);
        },
        onError: (error) => {
          // The server names the field it refuses: show its message under that input.
          if (isApiError(error) && error.field === 'screenshots') setShotError(error.message);
          else if (isApiError(error) && error.field && (formFields as readonly string[]).includes(error.field)) {
            form.setFields([{ name: error.field as (typeof formFields)[number], errors: [error.message] }]);
          }
        },
      },
    );
  };
  const fieldError = isApiError(send.error) && send.error.field && [...formFields, 'screenshots'].includes(send.error.field);

  return (
    <div className="fw-page fw-feedback" data-testid="feedback">
      <Card variant="borderless" title={t('title')} className="fw-feedback__card">
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        <Form<FormValues> form={form} layout="vertical" onFinish={submit} className="fw-feedback__form" data-testid="feedback-form">
          <Form.Item name="category" label={t('category')} rules={[{ required: true, message: t('categoryRequired') }]}>
            <Select
              placeholder={t('categoryPlaceholder')}
              options={feedbackCategories.map((c) => ({ value: c, label: t(`categories.${c}`) }))}
              data-testid="feedback-category"
            />
          </Form.Item>
          <Form.Item
            name="text"
            label={t('text')}
            rules={[
              {
                validator: (_, value: string | undefined) => {
                  const problem = textProblem(value);
                  if (problem === 'required') return Promise.reject(new Error(t('textRequired')));
                  if (problem === 'tooLong') return Promise.reject(new Error(t('textTooLong', { max: MAX_TEXT })));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <Input.TextArea rows={5} showCount maxLength={MAX_TEXT} placeholder={t('textPlaceholder')} data-testid="feedback-text" />
          </Form.Item>
          <Form.Item
            label={t('screenshots')}
            extra={t('screenshotsHint', { max: MAX_SCREENSHOTS })}
            validateStatus={shotError ? 'error' : undefined}
            help={shotError ?? undefined}
          >
            <Upload
              listType="picture-card"
              accept={SHOT_TYPES.join(',')}
              multiple
              fileList={shots}
              previewFile={dataURL}
              beforeUpload={(file, batch) => {
                const problem = shotProblem(file, shots.length + batch.indexOf(file));
                setShotError(problem && t(`shotProblem.${problem}`, { name: file.name, max: MAX_SCREENSHOTS }));
                // A file that passes is sent with the form, not on its own.
                return problem ? Upload.LIST_IGNORE : false;
              }}
              onChange={({ fileList }) => setShots(fileList.slice(0, MAX_SCREENSHOTS))}
              onRemove={() => setShotError(null)}
              data-testid="feedback-screenshots"
            >
              {shots.length < MAX_SCREENSHOTS && (
                <button className="fw-feedback__add" type="button">
                  <PlusOutlined />
                  <div>{t('addScreenshot')}</div>
                </button>
              )}
            </Upload>
          </Form.Item>
          <Form.Item
            name="contact"
            label={t('contact')}
            extra={offered ? t('contactHint') : t('contactHintNone')}
            rules={[{ validator: (_, value: string | undefined) => (contactTooLong(value) ? Promise.reject(new Error(t('contactTooLong', { max: MAX_CONTACT }))) : Promise.resolve()) }]}
          >
            <Input placeholder={t('contactPlaceholder')} maxLength={MAX_CONTACT} data-testid="feedback-contact" />
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<SendOutlined />} loading={send.isPending} data-testid="feedback-submit">
            {t('submit')}
          </Button>
        </Form>
        {!fieldError && <ServerErrorAlert error={send.error} className="fw-feedback__error" />}
      </Card>

      <Card variant="borderless" title={t('mine')} className="fw-feedback__card">
        <ServerErrorAlert error={mine.error} />
        {mine.isPending ? (
          <PageLoading />
        ) : (
          <div className="fw-feedback__list" data-testid="feedback-list">
            {(mine.data ?? []).length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('none')} />
            ) : (
              (mine.data ?? []).map((f) => <FeedbackItem key={f.id} f={f} />)
            )}
          </div>
        )}
      </Card>
    </div>
  );
}

function FeedbackItem({ f }: { f: Feedback }) {
  const { t } = useTranslation('feedback');
  return (
    <article className="fw-feedback__item" data-testid="feedback-item" data-state={f.state}>
      <Flex vertical gap={8} className="fw-feedback__body">
        <Flex gap={8} wrap align="center">
          <Tag>{t(`categories.${f.category}`)}</Tag>
          <Tag color={f.state === 'answered' ? 'success' : 'processing'} data-testid="feedback-state">
            {t(`state.${f.state}`)}
          </Tag>
          <Typography.Text type="secondary">
            #{f.id} · {formatDateTime(f.createTime)}
          </Typography.Text>
        </Flex>
        <Typography.Paragraph className="fw-feedback__text">{f.text}</Typography.Paragraph>
        {f.screenshots.length > 0 && (
          <Image.PreviewGroup>
            <Flex gap={8} wrap>
              {f.screenshots.map((s, i) => (
                <Image key={s.id} src={s.url} width={88} height={66} className="fw-feedback__thumb" alt={t('screenshotAlt', { n: i + 1 })} />
              ))}
            </Flex>
          </Image.PreviewGroup>
        )}
        {f.contact && (
          <Typography.Text type="secondary">
            {t('contact')}: {f.contact}
          </Typography.Text>
        )}
        {f.state === 'answered' ? (
          <div className="fw-feedback__answer" data-testid="feedback-answer">
            <Typography.Text strong>
              {t('answer')}
              {f.answerTime !== null && <Typography.Text type="secondary"> · {formatDateTime(f.answerTime)}</Typography.Text>}
            </Typography.Text>
            <Typography.Paragraph className="fw-feedback__text">{f.answer}</Typography.Paragraph>
          </div>
        ) : (
          <Typography.Text type="secondary">{t('waiting')}</Typography.Text>
        )}
      </Flex>
    </article>
  );
}
