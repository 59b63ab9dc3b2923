package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"tandem/backend"
	"tandem/model"
)

// registerImages adds -i/--image FILE (repeatable) to fs: local image
// files sent with the first prompt as "localImage" inputs.
func registerImages(fs *pflag.FlagSet, images *[]string) {
	fs.StringArrayVarP(images, "image", "i", nil, "attach the image `FILE` to the first prompt (.png, .jpg, .webp, .gif with such content; repeatable)")
}

// checkImages checks -i's files before anything starts, relative paths
// taken from the current directory: each must exist and be an image. It
// returns their absolute paths; an error is a usage error naming the
// flag and the file.
func checkImages(images []string) ([]string, error) {
	if len(images) == 0 {
		return nil, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(images))
	for _, p := range images {
		abs, _, err := model.CheckImageFile(p, cwd)
		if err != nil {
			var fe *model.ImageFileError
			reason := err.Error()
			if errors.As(err, &fe) {
				reason = fe.Reason
			}
			return nil, &usageError{fmt.Sprintf("invalid value %q for -i/--image: %s", p, reason)}
		}
		out = append(out, abs)
	}
	return out, nil
}

// execImages readies -i's files for a turn of sess: the current model
// must take images (model/list), and over --ssh or --remote each local
// file is first copied into the thread's workspace there (cwd). It
// returns the paths the app-server reads.
func execImages(ctx context.Context, sess *backend.Session, modelName, cwd string, images []string) ([]string, error) {
	if len(images) == 0 {
		return nil, nil
	}
	if models, err := sess.ListModels(ctx); err == nil {
		for _, mi := range models {
			if (mi.Model == modelName || mi.ID == modelName) && !mi.TakesImages() {
				return nil, fmt.Errorf("%s does not take images (-i): choose another model with -m", modelName)
			}
		}
	}
	if backend.LocalPeer(sess.Describe()) { // the daemon on this machine reads them too
		return images, nil
	}
	out := make([]string, 0, len(images))
	for _, local := range images {
		remote := backend.RemoteImagePath(cwd, local)
		if err := backend.UploadImage(ctx, sess, local, remote); err != nil {
			return nil, fmt.Errorf("copying %s to the app-server: %w", local, err)
		}
		out = append(out, remote)
	}
	return out, nil
}
