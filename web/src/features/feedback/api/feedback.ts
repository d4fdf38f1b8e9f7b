import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The categories the server accepts, in the order the form lists them. */
export const feedbackCategories = ['problem', 'suggestion', 'device', 'account', 'other'] as const;
export type FeedbackCategory = (typeof feedbackCategories)[number];

export interface FeedbackScreenshot {
  id: number;
  contentType: string;
  width: number;
  height: number;
  size: number;
  /** GET it with the session: the author's only. */
  url: string;
}

/** One feedback of the caller's (GET /apis/feedback). */
export interface Feedback {
  id: number;
  category: FeedbackCategory;
  text: string;
  contact: string;
  state: 'open' | 'answered';
  answer: string;
  /** Unix milliseconds. */
  createTime: number;
  answerTime: number | null;
  screenshots: FeedbackScreenshot[];
}

export interface NewFeedback {
  category: FeedbackCategory;
  text: string;
  contact: string;
  screenshots: File[];
}

const key = ['feedback', 'mine'] as const;

export function useMyFeedback() {
  return useQuery({
    queryKey: key,
    queryFn: ({ signal }) => api.get<Feedback[]>('/feedback', { signal }),
  });
}

/** Sends a feedback as multipart/form-data (the screenshots as files named "screenshots"). */
export function useSendFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (f: NewFeedback) => {
      const form = new FormData();
      form.append('category', f.category);
      form.append('text', f.text);
      form.append('contact', f.contact);
      for (const file of f.screenshots) form.append('screenshots', file, file.name);
      return api.post<Feedback>('/feedback', form);
    },
    onSuccess: (created) => {
      queryClient.setQueryData<Feedback[]>(key, (list) => [created, ...(list ?? []).filter((f) => f.id !== created.id)]);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
