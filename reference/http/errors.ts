/** The contract's error bodies, in one place, so every hand-written answer has the same shape. */
export const DOCUMENTATION_URL = "https://service.example/docs";

export interface ErrorBody {
  message: string;
  documentation_url: string;
}

export function errorBody(message: string): ErrorBody {
  return { message, documentation_url: DOCUMENTATION_URL };
}

export interface ValidationItem {
  resource: string;
  field: string;
  code: "missing" | "missing_field" | "invalid" | "already_exists" | "custom";
  message?: string;
}

export function validationFailed(errors: ValidationItem[]): ErrorBody & { errors: ValidationItem[] } {
  return { message: "Validation Failed", errors, documentation_url: DOCUMENTATION_URL };
}
