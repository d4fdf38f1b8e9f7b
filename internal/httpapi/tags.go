package httpapi

import (
	"github.com/fieldwatch/fieldwatch/internal/errs"
)

// poiTags serves GET /apis/poi/{id}/tags.
func (s *Server) poiTags(c *call) (any, error) {
	d := c.device
	return nonNil(d.Tags), nil
}

// listTags serves GET /apis/tags.
func (s *Server) listTags(c *call) (any, error) { return s.Devices.Tags(c.r.Context(), c.account.ID) }

// createTag serves POST /apis/tag {tag}.
func (s *Server) createTag(c *call) (any, error) {
	var b struct {
		Tag string `json:"tag"`
	}
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	return s.Devices.CreateTag(c.r.Context(), c.account.ID, b.Tag)
}

// deleteTag serves DELETE /apis/tag/{id}.
func (s *Server) deleteTag(c *call) (any, error) {
	id, err := pathID(c, "id")
	if err != nil {
		return nil, err
	}
	return nil, s.Devices.DeleteTag(c.r.Context(), c.account.ID, id)
}

// tagDevice serves POST /apis/poi/{id}/tag {tagId} or {tag}: puts one of
// the caller's tags on the device, or the tag of that name, created with
// the tagging in one transaction, so a refused tagging creates no tag.
func (s *Server) tagDevice(c *call) (any, error) {
	id := c.device.ID
	var b tagBody
	if err := decode(c, &b); err != nil {
		return nil, err
	}
	var err error
	if b.TagID != 0 {
		err = s.Devices.TagDevice(c.r.Context(), c.account.ID, id, b.TagID)
	} else {
		_, err = s.Devices.TagDeviceNamed(c.r.Context(), c.account.ID, id, b.Tag)
	}
	if err != nil {
		return nil, err
	}
	d, _, err := s.Devices.Get(c.r.Context(), c.account.ID, id)
	if err != nil {
		return nil, err
	}
	return nonNil(d.Tags), nil
}

// tagBody names the tag to put on a device: an existing tag by its id, or
// a tag by its name.
type tagBody struct {
	TagID int64  `json:"tagId"`
	Tag   string `json:"tag"`
}

func (b *tagBody) validate() error {
	if b.TagID == 0 && b.Tag == "" {
		return errs.Invalid("tagId", "error.required")
	}
	return nil
}

// untagDevice serves DELETE /apis/poi/{id}/tag/{tagId}.
func (s *Server) untagDevice(c *call) (any, error) {
	id := c.device.ID
	tag, err := pathID(c, "tagId")
	if err != nil {
		return nil, err
	}
	return nil, s.Devices.UntagDevice(c.r.Context(), c.account.ID, id, tag)
}
